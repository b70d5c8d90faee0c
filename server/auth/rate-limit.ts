import { eq, sql } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { rateLimits } from "../db/schema.ts";

export type RateLimitRule = { limit: number; windowMs: number };

/**
 * No limit counts over a longer span than this. The clean-up job deletes `rate_limits` rows twice
 * as old (server/jobs/purges.ts), so a rule that counted longer would be forgotten early: such a
 * rule is refused where it is made, not discovered in production.
 */
export const LONGEST_RATE_LIMIT_SPAN_MS = 24 * 60 * 60_000;

export function assertWithinLongestSpan(spanMs: number) {
  if (spanMs > LONGEST_RATE_LIMIT_SPAN_MS)
    throw new Error(`A rate limit may count over ${LONGEST_RATE_LIMIT_SPAN_MS} ms at most (got ${spanMs}); the clean-up job would forget it early.`);
}

/**
 * Fixed-window counters kept in the database, so every API instance shares them.
 * `hit` counts one more attempt and answers whether it is over the limit in one statement
 * (starting a new window when the old one has passed), so parallel requests can never all
 * read the same count before any of them is counted. `release` takes one attempt back.
 */
export function createRateLimiter(db: Database, rule: RateLimitRule) {
  assertWithinLongestSpan(rule.windowMs);
  return {
    async hit(key: string, now: Date): Promise<{ blocked: boolean; retryAfterSeconds: number }> {
      const windowStart = new Date(now.getTime() - rule.windowMs);
      const [row] = await db
        .insert(rateLimits)
        .values({ key, windowStartedAt: now, hits: 1 })
        .onConflictDoUpdate({
          target: rateLimits.key,
          set: {
            hits: sql`case when ${rateLimits.windowStartedAt} <= ${windowStart.toISOString()}::timestamptz then 1 else ${rateLimits.hits} + 1 end`,
            windowStartedAt: sql`case when ${rateLimits.windowStartedAt} <= ${windowStart.toISOString()}::timestamptz then ${now.toISOString()}::timestamptz else ${rateLimits.windowStartedAt} end`,
          },
        })
        .returning({ hits: rateLimits.hits, windowStartedAt: rateLimits.windowStartedAt });
      if (!row || row.hits <= rule.limit) return { blocked: false, retryAfterSeconds: 0 };
      const windowEnds = row.windowStartedAt.getTime() + rule.windowMs;
      return { blocked: true, retryAfterSeconds: Math.max(1, Math.ceil((windowEnds - now.getTime()) / 1000)) };
    },

    async release(key: string): Promise<void> {
      await db
        .update(rateLimits)
        .set({ hits: sql`greatest(${rateLimits.hits} - 1, 0)` })
        .where(eq(rateLimits.key, key));
    },

    async clear(key: string): Promise<void> {
      await db.delete(rateLimits).where(eq(rateLimits.key, key));
    },
  };
}
