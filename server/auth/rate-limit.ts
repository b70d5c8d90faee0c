import { eq, sql } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { rateLimits } from "../db/schema.ts";

export type RateLimitRule = { limit: number; windowMs: number };

/**
 * Fixed-window counters kept in the database, so every API instance shares them.
 * `isBlocked` only reads; `record` counts one more hit and starts a new window when the
 * old one has passed.
 */
export function createRateLimiter(db: Database, rule: RateLimitRule) {
  return {
    async isBlocked(key: string, now: Date): Promise<{ blocked: boolean; retryAfterSeconds: number }> {
      const [row] = await db.select().from(rateLimits).where(eq(rateLimits.key, key)).limit(1);
      if (!row) return { blocked: false, retryAfterSeconds: 0 };
      const windowEnds = row.windowStartedAt.getTime() + rule.windowMs;
      if (windowEnds <= now.getTime() || row.hits < rule.limit) {
        return { blocked: false, retryAfterSeconds: 0 };
      }
      return { blocked: true, retryAfterSeconds: Math.ceil((windowEnds - now.getTime()) / 1000) };
    },

    async record(key: string, now: Date): Promise<void> {
      const windowStart = new Date(now.getTime() - rule.windowMs);
      await db
        .insert(rateLimits)
        .values({ key, windowStartedAt: now, hits: 1 })
        .onConflictDoUpdate({
          target: rateLimits.key,
          set: {
            hits: sql`case when ${rateLimits.windowStartedAt} <= ${windowStart.toISOString()}::timestamptz then 1 else ${rateLimits.hits} + 1 end`,
            windowStartedAt: sql`case when ${rateLimits.windowStartedAt} <= ${windowStart.toISOString()}::timestamptz then ${now.toISOString()}::timestamptz else ${rateLimits.windowStartedAt} end`,
          },
        });
    },

    async clear(key: string): Promise<void> {
      await db.delete(rateLimits).where(eq(rateLimits.key, key));
    },
  };
}
