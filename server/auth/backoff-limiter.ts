import { eq, sql } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { rateLimits } from "../db/schema.ts";
import { assertWithinLongestSpan } from "./rate-limit.ts";

/**
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

// 2^20 × any sensible first delay is far past any cap; the bound keeps power() finite.
const MAX_DOUBLINGS = 20;

/** How long `hits` attempts on one key must wait before the next is counted. */
export function backoffWaitMs(rule: BackoffRule, hits: number) {
  return hits < rule.freeAttempts
    ? 0
    : Math.min(rule.maxDelayMs, rule.firstDelayMs * 2 ** Math.min(hits - rule.freeAttempts, MAX_DOUBLINGS));
}

/**
 * Progressive delay kept in the `rate_limits` table: `hits` counts attempts and the window
 * starts at the last counted one and lasts as long as the wait `hits` has earned. An attempt
 * inside the wait is refused and not counted, so retrying early does not lengthen the wait.
 * `hit` counts and decides in one conditional upsert, so parallel attempts cannot all pass.
 */
export function createBackoffLimiter(db: Database, rule: BackoffRule) {
  assertWithinLongestSpan(Math.max(rule.forgetAfterMs, rule.maxDelayMs));
  const waitMs = (hits: number) => backoffWaitMs(rule, hits);
  const waitSql = sql`(case when ${rateLimits.hits} < ${rule.freeAttempts} then 0
    else least(${rule.maxDelayMs}, ${rule.firstDelayMs} * power(2, least(${rateLimits.hits} - ${rule.freeAttempts}, ${MAX_DOUBLINGS})))
    end) * interval '1 millisecond'`;

  return {
    async hit(key: string, now: Date) {
      const nowSql = sql`${now.toISOString()}::timestamptz`;
      const forgotten = sql`${rateLimits.windowStartedAt} <= ${new Date(now.getTime() - rule.forgetAfterMs).toISOString()}::timestamptz`;
      const counted = await db
        .insert(rateLimits)
        .values({ key, windowStartedAt: now, hits: 1 })
        .onConflictDoUpdate({
          target: rateLimits.key,
          set: {
            hits: sql`case when ${forgotten} then 1 else ${rateLimits.hits} + 1 end`,
            windowStartedAt: now,
          },
          // No row comes back while the wait lasts: the attempt is refused and not counted.
          setWhere: sql`${rateLimits.windowStartedAt} + ${waitSql} <= ${nowSql}`,
        })
        .returning({ hits: rateLimits.hits });
      if (counted.length > 0)
        return { blocked: false, retryAfterSeconds: 0, hits: counted[0]!.hits };

      const [row] = await db.select().from(rateLimits).where(eq(rateLimits.key, key));
      const waitEnds = row ? row.windowStartedAt.getTime() + waitMs(row.hits) : now.getTime();
      const retryAfterSeconds = Math.max(1, Math.ceil((waitEnds - now.getTime()) / 1000));
      return { blocked: true, retryAfterSeconds, hits: row?.hits ?? 0 };
    },

    async clear(key: string): Promise<void> {
      await db.delete(rateLimits).where(eq(rateLimits.key, key));
    },
  };
}
