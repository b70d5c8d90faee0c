import { or, eq, sql } from "drizzle-orm";
import type { Database, Transaction } from "../db/client.ts";
import { rateLimits } from "../db/schema.ts";
import { tooManyRequests } from "../http/too-many-requests.ts";
import {
  backoffRetryAfterSeconds,
  backoffRule,
  backoffWaitMs,
  countBackoffAttemptSql,
} from "./backoff-limiter.ts";
import {
  countAttemptSql,
  countedRow,
  overLimit,
  rateLimitRule,
  releaseAttemptSql,
} from "./rate-limit.ts";

// Decision 053 says why these three counters and these numbers.

/** One phone from one client network: the owner on their own phone meets only their own failures. */
export const FAILURES_PER_PHONE_AND_CLIENT = backoffRule({
  freeAttempts: 5,
  firstDelayMs: 30_000,
  maxDelayMs: 15 * 60_000,
  forgetAfterMs: 24 * 60 * 60_000,
});
/** One client network, any phone: high enough for a campus Wi-Fi or a carrier's NAT. */
export const FAILURES_PER_CLIENT = rateLimitRule({ limit: 300, windowMs: 15 * 60_000 });
/**
 * One phone, from anywhere. Past it the phone is under distributed guessing: each client
 * network keeps one attempt (the owner's right password gets in) and loses the rest.
 */
export const FAILURES_PER_PHONE = rateLimitRule({ limit: 50, windowMs: 15 * 60_000 });

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
 *
 * Each way is one statement (decision 112): a sign-in is the busiest write of registration week,
 * and a transaction of one round trip per counter held a pool connection for all of them.
 */
export function createSignInLimits(db: Database, kind: SignInKind = "login") {
  return async function admitSignIn(account: string, network: string, now: Date) {
    const keys = {
      pair: `${pairPrefix(kind, account)}${network}`,
      client: clientKey(kind, network),
      phone: accountKey(kind, account),
    };
    const { rows } = await db.execute<AdmissionRow>(sql`
      with pair as (${countBackoffAttemptSql(FAILURES_PER_PHONE_AND_CLIENT, keys.pair, now)}),
      client as (${countAttemptSql(FAILURES_PER_CLIENT, keys.client, now, sql`exists (select 1 from pair)`)}),
      phone as (${countAttemptSql(FAILURES_PER_PHONE, keys.phone, now, sql`exists (select 1 from client where hits <= ${FAILURES_PER_CLIENT.limit})`)})
      select ${commitWithoutFlush},
        (select hits from pair) as pair_hits,
        (select hits from client) as client_hits, (select window_started_at from client) as client_since,
        (select hits from phone) as phone_hits, (select window_started_at from phone) as phone_since,
        -- Read from before this statement: the row as it stood when the attempt was refused.
        (select hits from ${rateLimits} where key = ${keys.pair}) as waiting_hits,
        (select window_started_at from ${rateLimits} where key = ${keys.pair}) as waiting_since`);
    const row = rows[0]!;
    if (row.pair_hits === null)
      refuse(
        backoffRetryAfterSeconds(
          FAILURES_PER_PHONE_AND_CLIENT,
          countedRow(row.waiting_hits, row.waiting_since),
          now,
        ),
      );
    const client = overLimit(
      FAILURES_PER_CLIENT,
      countedRow(row.client_hits, row.client_since),
      now,
    );
    if (client.blocked) refuse(client.retryAfterSeconds);
    const everywhere = overLimit(
      FAILURES_PER_PHONE,
      countedRow(row.phone_hits, row.phone_since),
      now,
    );
    if (everywhere.blocked && Number(row.pair_hits) > 1) refuse(everywhere.retryAfterSeconds);

    return {
      /** The password was right: this client's failures on the phone are forgiven. */
      async succeeded() {
        await db.execute(sql`
          with forgiven as (delete from ${rateLimits} where key = ${keys.pair}),
          released as (${releaseAttemptSql([keys.client, keys.phone])})
          select ${commitWithoutFlush}`);
      },
    };
  };
}

type AdmissionRow = Record<
  "pair_hits" | "client_hits" | "phone_hits" | "waiting_hits",
  number | null
> &
  Record<"client_since" | "phone_since" | "waiting_since", Date | string | null>;

/**
 * Commits the statement's counters without waiting for the disk: every student behind one campus
 * or carrier network counts on the same row, and a commit that waits for its flush holds that
 * row's lock the whole time (decision 112). A crash may forget the last fraction of a second of
 * counts: a throttle's loss, not a record's. Local to the statement's own transaction: the pooled
 * connection commits everything else as before.
 */
const commitWithoutFlush = sql`set_config('synchronous_commit', 'off', true) as commit_without_flush`;

/** Forgets every failed sign-in on an account (after a password reset: the owner is back in). */
export async function forgetFailedSignIns(
  db: Database | Transaction,
  account: string,
  kind: SignInKind = "login",
) {
  await db.delete(rateLimits).where(countersOf(kind, account));
}

const countersOf = (kind: SignInKind, account: string) =>
  or(
    eq(rateLimits.key, accountKey(kind, account)),
    sql`starts_with(${rateLimits.key}, ${pairPrefix(kind, account)})`,
  );

/**
 * How an account's sign-in stands, for the registry's record page: failures counted on it from
 * any network in the current window, and whether some network must wait before its next try.
 */
export async function signInStanding(
  db: Database,
  account: string,
  now: Date,
  kind: SignInKind = "login",
) {
  const rows = await db.select().from(rateLimits).where(countersOf(kind, account));
  const everywhere = rows.find((row) => row.key === accountKey(kind, account));
  const windowLive =
    everywhere &&
    now.getTime() - everywhere.windowStartedAt.getTime() < FAILURES_PER_PHONE.windowMs;
  const slowed = rows.some(
    (row) =>
      row.key !== accountKey(kind, account) &&
      row.windowStartedAt.getTime() + backoffWaitMs(FAILURES_PER_PHONE_AND_CLIENT, row.hits) >
        now.getTime(),
  );
  return { failures: windowLive ? everywhere.hits : 0, slowed };
}
