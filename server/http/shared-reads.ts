import { LRUCache } from "lru-cache";

/**
 * Reads whose answer is the same for every student who asks (the academic sessions, today's
 * announcements, a programme's mapped courses), kept by this process for `ttlMs` (decision 112).
 * In registration week thousands of students ask the same few questions within seconds; one
 * query answers them all, and students who ask together while it runs wait for that same query
 * instead of each sending their own.
 *
 * Only what students are shown: every rule the server enforces (the registration window, the
 * unit cap, the fee) reads the database afresh in its own transaction. A staff change made
 * through this process is seen at once (`forgetAll`); one made through another process within
 * `ttlMs`, like a session (SESSION_CACHE_MS). A `ttlMs` of 0 reads every time.
 */
export function createSharedReads(options: { ttlMs: number; max?: number }) {
  const entries =
    options.ttlMs > 0
      ? new LRUCache<string, { answer: Promise<unknown> }>({
          max: options.max ?? 1_000,
          ttl: options.ttlMs,
          ttlAutopurge: false,
        })
      : undefined;
  return {
    read<T>(key: string, load: () => Promise<T>): Promise<T> {
      if (!entries) return load();
      const kept = entries.get(key);
      if (kept) return kept.answer as Promise<T>;
      const answer = load();
      const entry = { answer };
      entries.set(key, entry);
      // A failed read is not an answer: the next student asks the database again.
      answer.catch(() => {
        if (entries.get(key) === entry) entries.delete(key);
      });
      return answer;
    },
    forgetAll: () => entries?.clear(),
  };
}
export type SharedReads = ReturnType<typeof createSharedReads>;
