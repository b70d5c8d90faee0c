import { or, eq, sql } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { rateLimits } from "../db/schema.ts";
import { tooManyRequests } from "../http/too-many-requests.ts";
import { createBackoffLimiter } from "./backoff-limiter.ts";
import { createRateLimiter } from "./rate-limit.ts";

// Decision 053 says why these three counters and these numbers.

/** One phone from one client network: the owner on their own phone meets only their own failures. */
export const FAILURES_PER_PHONE_AND_CLIENT = {
  freeAttempts: 5,
  firstDelayMs: 30_000,
  maxDelayMs: 15 * 60_000,
  forgetAfterMs: 24 * 60 * 60_000,
};
/** One client network, any phone: high enough for a campus Wi-Fi or a carrier's NAT. */
export const FAILURES_PER_CLIENT = { limit: 300, windowMs: 15 * 60_000 };
/**
 * One phone, from anywhere. Past it the phone is under distributed guessing: each client
 * network keeps one attempt (the owner's right password gets in) and loses the rest.
 */
export const FAILURES_PER_PHONE = { limit: 50, windowMs: 15 * 60_000 };

const phoneKey = (phone: string) => `login:phone:${phone}`;
const pairPrefix = (phone: string) => `login:phone-client:${phone}@`;
const clientKey = (network: string) => `login:client:${network}`;

function refuse(retryAfterSeconds: number): never {
  throw tooManyRequests(
    "Too many failed sign-in attempts.",
    retryAfterSeconds,
    "and try again, or reset your password.",
  );
}

/**
 * Counts a sign-in attempt before the password is checked, so a burst of parallel guesses
 * cannot all reach the (slow) check, and refuses it with a 429 when a limit is reached. Each
 * counter is only touched when the ones before it let the attempt through, so an attempt
 * already refused costs no one else anything. A right password calls `succeeded()`.
 */
export function createSignInLimits(db: Database) {
  const perPair = createBackoffLimiter(db, FAILURES_PER_PHONE_AND_CLIENT);
  const perClient = createRateLimiter(db, FAILURES_PER_CLIENT);
  const perPhone = createRateLimiter(db, FAILURES_PER_PHONE);

  return async function admitSignIn(phone: string, network: string, now: Date) {
    const pairKey = `${pairPrefix(phone)}${network}`;
    const pair = await perPair.hit(pairKey, now);
    if (pair.blocked) refuse(pair.retryAfterSeconds);
    const client = await perClient.hit(clientKey(network), now);
    if (client.blocked) refuse(client.retryAfterSeconds);
    const everywhere = await perPhone.hit(phoneKey(phone), now);
    if (everywhere.blocked && pair.hits > 1) refuse(everywhere.retryAfterSeconds);

    return {
      /** The password was right: this client's failures on the phone are forgiven. */
      async succeeded() {
        await perPair.clear(pairKey);
        await perClient.release(clientKey(network));
        await perPhone.release(phoneKey(phone));
      },
    };
  };
}

/** Forgets every failed sign-in on `phone` (after a password reset: the owner is back in). */
export async function forgetFailedSignIns(db: Database, phone: string) {
  await db
    .delete(rateLimits)
    .where(
      or(
        eq(rateLimits.key, phoneKey(phone)),
        sql`starts_with(${rateLimits.key}, ${pairPrefix(phone)})`,
      ),
    );
}
