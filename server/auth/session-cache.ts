import { LRUCache } from "lru-cache";
import type { authSessions, students } from "../db/schema.ts";
import type { StudentPlacement } from "../students/student-record.ts";

export type CachedSession = {
  session: typeof authSessions.$inferSelect;
  student: typeof students.$inferSelect;
  /** Where the student belongs, the current session and what they had paid in it, when the row was read. */
  placement: StudentPlacement;
};

/**
 * Sessions this process looked up in the last `ttlMs`, so one page (its own check and the three
 * or four reads it makes) costs one session query instead of four. Everything that ends a session
 * or changes a student through this process forgets their entries at once; another process
 * serving the same portal forgets them within `ttlMs` at most (decision 112). A `ttlMs` of 0
 * turns caching off (the tests' default: they change rows behind the API's back).
 */
export function createSessionCache(options: { ttlMs: number; max?: number }) {
  if (options.ttlMs <= 0) return undefined;
  const byStudent = new Map<number, Set<string>>();
  const entries = new LRUCache<string, CachedSession>({
    max: options.max ?? 20_000,
    ttl: options.ttlMs,
    // Expired entries are dropped when read, not on a timer: nothing runs while the portal is idle.
    ttlAutopurge: false,
    dispose: (entry, tokenHash) => {
      const tokens = byStudent.get(entry.student.id);
      tokens?.delete(tokenHash);
      if (tokens?.size === 0) byStudent.delete(entry.student.id);
    },
  });
  return {
    get: (tokenHash: string) => entries.get(tokenHash),
    set(tokenHash: string, entry: CachedSession) {
      entries.set(tokenHash, entry);
      const tokens = byStudent.get(entry.student.id) ?? new Set<string>();
      tokens.add(tokenHash);
      byStudent.set(entry.student.id, tokens);
    },
    forgetToken: (tokenHash: string) => void entries.delete(tokenHash),
    /** After a student's record or sessions change: their next request reads both afresh. */
    forgetStudent(studentId: number) {
      for (const tokenHash of [...(byStudent.get(studentId) ?? [])]) entries.delete(tokenHash);
    },
  };
}
export type SessionCache = NonNullable<ReturnType<typeof createSessionCache>>;
