import { and, eq } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { feeSchedule, payments } from "../db/schema.ts";
import type { FeeChoice } from "../../src/lib/payments/fees.ts";
import { PAYMENT_OPTIONS } from "../../src/lib/payments/fee-status.ts";

/** The scheduled amount in kobo for one option, level and session; null when none is set. */
export async function scheduledFeeKobo(db: Database, choice: FeeChoice): Promise<number | null> {
  const [row] = await db
    .select({ amountKobo: feeSchedule.amountKobo })
    .from(feeSchedule)
    .where(
      and(
        eq(feeSchedule.paymentOption, choice.option),
        eq(feeSchedule.level, choice.level),
        eq(feeSchedule.session, choice.session),
      ),
    )
    .limit(1);
  return row?.amountKobo ?? null;
}

/** The options a student has been credited for at one level in one session. */
export async function creditedOptions(
  db: Database,
  studentId: number,
  where: Pick<FeeChoice, "level" | "session">,
): Promise<string[]> {
  const rows = await db
    .select({ option: payments.paymentOption })
    .from(payments)
    .where(
      and(
        eq(payments.studentId, studentId),
        eq(payments.level, where.level),
        eq(payments.session, where.session),
        eq(payments.status, "success"),
      ),
    );
  return rows.map((row) => row.option);
}

/** The refusal for a choice that has no scheduled fee. */
export function noFeeMessage(choice: FeeChoice): string {
  const label = PAYMENT_OPTIONS.find((option) => option.value === choice.option)?.label;
  return `No fee is set for ${label} at ${choice.level} level in ${choice.session}. Check your choices, or ask the bursary.`;
}
