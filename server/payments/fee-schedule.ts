import { and, eq, isNull, or, sql } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { academicSessions, feeSchedule, payments, type students } from "../db/schema.ts";
import { collegeDate } from "../../src/lib/courses/registration-window.ts";
import { lateFeeRefusal } from "../../src/lib/payments/late-fees.ts";
import type { FeeChoice } from "../../src/lib/payments/fees.ts";
import { PAYMENT_OPTIONS } from "../../src/lib/payments/fee-status.ts";

type Payer = Pick<typeof students.$inferSelect, "programmeId" | "studyMode">;

/**
 * The fee in force for `choice` and this student, or null when none is set. Fees for the
 * student's own programme or study mode and fees for all of them can both match: the most
 * specific wins, programme before study mode (decision 095).
 */
export async function scheduledFee(db: Database, choice: FeeChoice, payer: Payer): Promise<{ id: number; amountKobo: number } | null> {
  const [row] = await db
    .select({ id: feeSchedule.id, amountKobo: feeSchedule.amountKobo })
    .from(feeSchedule)
    .where(
      and(
        eq(feeSchedule.paymentOption, choice.option),
        eq(feeSchedule.level, choice.level),
        eq(feeSchedule.session, choice.session),
        isNull(feeSchedule.replacedAt),
        or(isNull(feeSchedule.programmeId), eq(feeSchedule.programmeId, payer.programmeId)),
        or(isNull(feeSchedule.studyMode), sql`lower(${feeSchedule.studyMode}) = lower(${payer.studyMode})`),
      ),
    )
    .orderBy(sql`${feeSchedule.programmeId} is null`, sql`${feeSchedule.studyMode} is null`)
    .limit(1);
  return row ?? null;
}

/** Why late fees cannot be paid today for the chosen session; null when they can (or it is not a late fee). */
export async function lateFeeProblem(db: Database, choice: FeeChoice, now: Date): Promise<string | null> {
  if (choice.option !== "latefees") return null;
  const [session] = await db
    .select({ lateFeesFrom: academicSessions.lateFeesFrom })
    .from(academicSessions)
    .where(eq(academicSessions.name, choice.session));
  return lateFeeRefusal(choice.session, session?.lateFeesFrom ?? null, collegeDate(now));
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
