import { or, eq, sql } from "drizzle-orm";
import type { Database, Transaction } from "../db/client.ts";
import { rateLimits } from "../db/schema.ts";
import { tooManyRequests } from "../http/too-many-requests.ts";
import { backoffWaitMs, createBackoffLimiter } from "./backoff-limiter.ts";
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

/**
 * Whose sign-in the counters guard: students by phone (`login:`), staff by e-mail
 * (`staff-login:`). The same rules apply to both (decision 080), in separate keys.
 */
export type SignInKind = "login" | "staff-login";

const accountKey = (kind: SignInKind, account: string) => `${kind}:phone:${account}`;
const pairPrefix = (kind: SignInKind, account: string) => `${kind}:phone-client:${account}@`;
const clientKey = (kind: SignInKind, network: string) => `${kind}:client:${network}`;

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
export function createSignInLimits(db: Database, kind: SignInKind = "login") {
  const limitersOn = (executor: Database) => ({
    perPair: createBackoffLimiter(executor, FAILURES_PER_PHONE_AND_CLIENT),
    perClient: createRateLimiter(executor, FAILURES_PER_CLIENT),
    perPhone: createRateLimiter(executor, FAILURES_PER_PHONE),
  });

  return async function admitSignIn(account: string, network: string, now: Date) {
    const pairKey = `${pairPrefix(kind, account)}${network}`;
    // Decided inside the transaction, refused after it commits: a refused attempt's counts stand.
    const refusal = await inCountersTransaction(db, async (tx) => {
      const { perPair, perClient, perPhone } = limitersOn(tx);
      const pair = await perPair.hit(pairKey, now);
      if (pair.blocked) return pair.retryAfterSeconds;
      const client = await perClient.hit(clientKey(kind, network), now);
      if (client.blocked) return client.retryAfterSeconds;
      const everywhere = await perPhone.hit(accountKey(kind, account), now);
      if (everywhere.blocked && pair.hits > 1) return everywhere.retryAfterSeconds;
      return null;
    });
    if (refusal !== null) refuse(refusal);

    return {
      /** The password was right: this client's failures on the phone are forgiven. */
      async succeeded() {
        await inCountersTransaction(db, async (tx) => {
          const { perPair, perClient, perPhone } = limitersOn(tx);
          await perPair.clear(pairKey);
          await perClient.release(clientKey(kind, network));
          await perPhone.release(accountKey(kind, account));
        });
      },
    };
  };
}

/**
 * The counters of one sign-in, written together and committed without waiting for the disk:
 * every student behind one campus or carrier network counts on the same row, and a commit that
 * waits for its flush holds that row's lock the whole time (decision 112). A crash may forget the
 * last fraction of a second of counts: a throttle's loss, not a record's.
 */
function inCountersTransaction<T>(db: Database, counters: (tx: Database) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`set local synchronous_commit = off`);
    return counters(tx as unknown as Database);
  });
}

/** Forgets every failed sign-in on an account (after a password reset: the owner is back in). */
export async function forgetFailedSignIns(db: Database | Transaction, account: string, kind: SignInKind = "login") {
  await db.delete(rateLimits).where(countersOf(kind, account));
}

const countersOf = (kind: SignInKind, account: string) =>
  or(eq(rateLimits.key, accountKey(kind, account)), sql`starts_with(${rateLimits.key}, ${pairPrefix(kind, account)})`);

/**
 * How an account's sign-in stands, for the registry's record page: failures counted on it from
 * any network in the current window, and whether some network must wait before its next try.
 */
export async function signInStanding(db: Database, account: string, now: Date, kind: SignInKind = "login") {
  const rows = await db.select().from(rateLimits).where(countersOf(kind, account));
  const everywhere = rows.find((row) => row.key === accountKey(kind, account));
  const windowLive = everywhere && now.getTime() - everywhere.windowStartedAt.getTime() < FAILURES_PER_PHONE.windowMs;
  const slowed = rows.some(
    (row) => row.key !== accountKey(kind, account) &&
      row.windowStartedAt.getTime() + backoffWaitMs(FAILURES_PER_PHONE_AND_CLIENT, row.hits) > now.getTime(),
  );
  return { failures: windowLive ? everywhere.hits : 0, slowed };
}
