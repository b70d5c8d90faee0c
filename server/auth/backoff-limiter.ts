import { sql, type SQL } from "drizzle-orm";
import { rateLimits } from "../db/schema.ts";
import { assertWithinLongestSpan, timestampParam, type CountedRow } from "./rate-limit.ts";

/**
 * A progressive delay kept in the `rate_limits` table: `hits` counts attempts and the window
 * starts at the last counted one and lasts as long as the wait `hits` has earned.
 * `freeAttempts` pass at once; after that each attempt opens a wait of `firstDelayMs`,
 * doubling with every further attempt up to `maxDelayMs`. `forgetAfterMs` after its last
 * counted attempt a key starts again from nothing.
 */
export type BackoffRule = {
  freeAttempts: number;
  firstDelayMs: number;
  maxDelayMs: number;
  forgetAfterMs: number;
};

/** A rule, refused where it is made if the clean-up job would forget its counts early. */
export function backoffRule(rule: BackoffRule): BackoffRule {
  assertWithinLongestSpan(Math.max(rule.forgetAfterMs, rule.maxDelayMs));
  return rule;
}

// 2^20 × any sensible first delay is far past any cap; the bound keeps power() finite.
const MAX_DOUBLINGS = 20;

/** How long `hits` attempts on one key must wait before the next is counted. */
export function backoffWaitMs(rule: BackoffRule, hits: number) {
  return hits < rule.freeAttempts
    ? 0
    : Math.min(
        rule.maxDelayMs,
        rule.firstDelayMs * 2 ** Math.min(hits - rule.freeAttempts, MAX_DOUBLINGS),
      );
}

/**
 * The statement that counts one attempt on `key` and returns its `hits` and `window_started_at`,
 * or returns nothing while the wait `hits` has earned lasts: such an attempt is refused and not
 * counted, so retrying early does not lengthen the wait. Counting and deciding in one conditional
 * upsert means parallel attempts cannot all pass.
 */
export function countBackoffAttemptSql(rule: BackoffRule, key: string, now: Date): SQL {
  const at = timestampParam(now);
  const forgotten = sql`${rateLimits}.window_started_at <= ${timestampParam(new Date(now.getTime() - rule.forgetAfterMs))}`;
  const wait = sql`(case when ${rateLimits}.hits < ${rule.freeAttempts} then 0
    else least(${rule.maxDelayMs}, ${rule.firstDelayMs} * power(2, least(${rateLimits}.hits - ${rule.freeAttempts}, ${MAX_DOUBLINGS})))
    end) * interval '1 millisecond'`;
  return sql`insert into ${rateLimits} (key, window_started_at, hits) values (${key}, ${at}, 1)
    on conflict (key) do update set
      hits = case when ${forgotten} then 1 else ${rateLimits}.hits + 1 end,
      window_started_at = ${at}
      where ${rateLimits}.window_started_at + ${wait} <= ${at}
    returning hits, window_started_at`;
}

/** How long a refused attempt must wait, from the key's row as it stood when refused. */
export function backoffRetryAfterSeconds(
  rule: BackoffRule,
  row: CountedRow | undefined,
  now: Date,
) {
  const waitEnds = row
    ? row.windowStartedAt.getTime() + backoffWaitMs(rule, row.hits)
    : now.getTime();
  return Math.max(1, Math.ceil((waitEnds - now.getTime()) / 1000));
}
