import { eq, sql, type SQL } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { rateLimits } from "../db/schema.ts";

export type RateLimitRule = { limit: number; windowMs: number };

/** A counter's row after an attempt was counted on it. */
export type CountedRow = { hits: number; windowStartedAt: Date };

/**
 * No limit counts over a longer span than this. The clean-up job deletes `rate_limits` rows twice
 * as old (server/jobs/purges.ts), so a rule that counted longer would be forgotten early: such a
 * rule is refused where it is made, not discovered in production.
 */
export const LONGEST_RATE_LIMIT_SPAN_MS = 24 * 60 * 60_000;

/** A rule, refused where it is made if the clean-up job would forget its counts early. */
export function rateLimitRule(rule: RateLimitRule): RateLimitRule {
  assertWithinLongestSpan(rule.windowMs);
  return rule;
}

export function assertWithinLongestSpan(spanMs: number) {
  if (spanMs > LONGEST_RATE_LIMIT_SPAN_MS)
    throw new Error(
      `A rate limit may count over ${LONGEST_RATE_LIMIT_SPAN_MS} ms at most (got ${spanMs}); the clean-up job would forget it early.`,
    );
}

/** A timestamp parameter: both drivers send it as text, PostgreSQL reads it as written. */
export const timestampParam = (at: Date) => sql`${at.toISOString()}::timestamptz`;

/**
 * The statement that counts one attempt on `key` in a fixed window (starting a new window when
 * the old one has passed) and returns the row as counted, as `hits` and `window_started_at`.
 * Counting and answering in one statement means parallel requests can never all read the same
 * count before any of them is counted. Nothing is counted unless `onlyIf` holds, so a caller can
 * make it one step of a larger statement (decision 112).
 */
export function countAttemptSql(
  rule: RateLimitRule,
  key: string,
  now: Date,
  onlyIf: SQL = sql`true`,
): SQL {
  const at = timestampParam(now);
  const windowOver = sql`${rateLimits}.window_started_at <= ${timestampParam(new Date(now.getTime() - rule.windowMs))}`;
  return sql`insert into ${rateLimits} (key, window_started_at, hits)
    select ${key}, ${at}, 1 where ${onlyIf}
    on conflict (key) do update set
      hits = case when ${windowOver} then 1 else ${rateLimits}.hits + 1 end,
      window_started_at = case when ${windowOver} then ${at} else ${rateLimits}.window_started_at end
    returning hits, window_started_at`;
}

/** Whether a counted row is over the rule's limit, and for how long. */
export function overLimit(rule: RateLimitRule, row: CountedRow | undefined, now: Date) {
  if (!row || row.hits <= rule.limit) return { blocked: false, retryAfterSeconds: 0 };
  const windowEnds = row.windowStartedAt.getTime() + rule.windowMs;
  return {
    blocked: true,
    retryAfterSeconds: Math.max(1, Math.ceil((windowEnds - now.getTime()) / 1000)),
  };
}

/** A counter's row as a statement returned it (none: not counted), the same from either driver. */
export function countedRow(hits: unknown, windowStartedAt: unknown): CountedRow | undefined {
  if (hits === null || hits === undefined) return undefined;
  return { hits: Number(hits), windowStartedAt: new Date(windowStartedAt as string | Date) };
}

/** The statement that takes one attempt back from `key`'s count. */
export function releaseAttemptSql(keys: string[]): SQL {
  return sql`update ${rateLimits} set hits = greatest(hits - 1, 0) where key in (${sql.join(
    keys.map((key) => sql`${key}`),
    sql`, `,
  )})`;
}

/**
 * Fixed-window counters kept in the database, so every API instance shares them.
 * `hit` counts one more attempt and answers whether it is over the limit; `release` takes one
 * attempt back.
 */
export function createRateLimiter(db: Database, rule: RateLimitRule) {
  rateLimitRule(rule);
  return {
    async hit(key: string, now: Date): Promise<{ blocked: boolean; retryAfterSeconds: number }> {
      const { rows } = await db.execute<{ hits: number; window_started_at: Date }>(
        countAttemptSql(rule, key, now),
      );
      return overLimit(rule, countedRow(rows[0]?.hits, rows[0]?.window_started_at), now);
    },

    async release(key: string): Promise<void> {
      await db.execute(releaseAttemptSql([key]));
    },

    async clear(key: string): Promise<void> {
      await db.delete(rateLimits).where(eq(rateLimits.key, key));
    },
  };
}
