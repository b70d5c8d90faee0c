import { eq } from "drizzle-orm";
import type { Database, Transaction } from "../db/client.ts";
import { rateLimits } from "../db/schema.ts";

/** Wrong second-factor codes after a right password: a few tries, then a wait. */
export const WRONG_CODES = { limit: 10, windowMs: 15 * 60_000 };

export const wrongCodesKey = (staffId: number) => `staff-code:${staffId}`;

/** How many wrong codes are counted on the account now (0 when none). */
export async function wrongCodeCount(db: Database, staffId: number) {
  const [row] = await db
    .select({ hits: rateLimits.hits })
    .from(rateLimits)
    .where(eq(rateLimits.key, wrongCodesKey(staffId)));
  return row?.hits ?? 0;
}

export async function forgetWrongCodes(db: Database | Transaction, staffId: number) {
  await db.delete(rateLimits).where(eq(rateLimits.key, wrongCodesKey(staffId)));
}
