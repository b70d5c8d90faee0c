import { eq, like, or } from "drizzle-orm";
import type { Database, Transaction } from "../../db/client.ts";
import { rateLimits } from "../../db/schema.ts";
import { FAILED_SIGN_IN_LIMIT, signInFailureKey } from "../../auth/routes.ts";

// The student sign-in counters are keyed by phone (server/auth/routes.ts). Everything that
// knows that scheme is here, so a change of keys (say, phone plus address) is adapted in one
// place; `key:%` already covers counters that extend the phone's key.
function countersOf(phone: string) {
  const key = signInFailureKey(phone);
  return or(eq(rateLimits.key, key), like(rateLimits.key, `${key.replace(/[\\%_]/g, "\\$&")}:%`));
}

/** Failed sign-ins counted against the student's phone in the current window, and whether they lock it. */
export async function signInFailures(db: Database, phone: string, now: Date) {
  const windowStart = now.getTime() - FAILED_SIGN_IN_LIMIT.windowMs;
  const rows = await db.select().from(rateLimits).where(countersOf(phone));
  const live = rows.filter((row) => row.windowStartedAt.getTime() > windowStart);
  const failures = Math.max(0, ...live.map((row) => row.hits));
  return { failures, locked: failures >= FAILED_SIGN_IN_LIMIT.limit };
}

/** Lets the student try again at once: forgets the failed sign-ins counted against the phone. */
export async function clearSignInLockout(db: Database | Transaction, phone: string) {
  await db.delete(rateLimits).where(countersOf(phone));
}
