import { sql } from "drizzle-orm";
import type { Database, Transaction } from "../db/client.ts";
import { feeStatusFlags } from "../db/schema.ts";

/**
 * Flags a payment for the bursary's follow-up: shown on its page and in the payments list
 * (decisions 102, 141). One flag per payment; a later reason is appended, so a credit taken back
 * after a partial refund does not leave only the older, now wrong, reason.
 */
export async function flagForBursary(
  db: Database | Transaction,
  flag: { studentId: number; paymentId: number; reason: string; at: Date },
) {
  await db
    .insert(feeStatusFlags)
    .values({
      studentId: flag.studentId,
      paymentId: flag.paymentId,
      reason: flag.reason,
      raisedAt: flag.at,
    })
    .onConflictDoUpdate({
      target: feeStatusFlags.paymentId,
      set: {
        reason: sql`${feeStatusFlags.reason} || ' Then: ' || excluded.reason`,
        raisedAt: sql`excluded.raised_at`,
      },
      // A replayed event must not repeat its reason.
      setWhere: sql`position(excluded.reason in ${feeStatusFlags.reason}) = 0`,
    });
}
