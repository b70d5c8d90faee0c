import { and, eq, isNull, ne, sql } from "drizzle-orm";
import type { Database, Transaction } from "../db/client.ts";
import { preparedQuery } from "../db/prepared.ts";
import { feeSchedule, payments, students } from "../db/schema.ts";
import { collegeDate } from "../../common/format/dates.ts";
import { lateFeeRefusal } from "../../common/payments/late-fees.ts";
import type { FeeChoice } from "../../common/payments/fees.ts";
import { PAYMENT_OPTIONS } from "../../common/payments/fee-status.ts";
import type { FeeKind } from "../../common/payments/fee-kinds.ts";
import type { GatewayName } from "../../common/payments/gateway-names.ts";

const creditedOptionsQuery = preparedQuery((db) =>
  db
    .select({ option: payments.paymentOption })
    .from(payments)
    .where(
      and(
        eq(payments.studentId, sql.placeholder("studentId")),
        eq(payments.level, sql.placeholder("level")),
        eq(payments.session, sql.placeholder("session")),
        eq(payments.status, "success"),
        eq(payments.kind, "school_fee"),
        ne(payments.reference, sql.placeholder("exceptReference")),
      ),
    )
    .prepare("credited_options"),
);

/**
 * What a quote is made of, as columns of a read of the student's row: the fee in force for the
 * choice and this student (as `scheduled_fee` chooses it), the options already credited at that
 * level and session (as `credited_options`), and when the session's late fees open. A quote and
 * an initialised payment each need all three: one round trip instead of three (decision 195).
 */
const quoteReadsQuery = preparedQuery((db) => {
  const option = sql.placeholder("option");
  const level = sql.placeholder("level");
  const session = sql.placeholder("session");
  return db
    .select({
      fee: sql<FeeInForce | null>`(
        select json_build_object('id', f.id, 'amountKobo', f.amount_kobo, 'allowedGateways', f.allowed_gateways)
        from fee_schedule f
        where f.kind = 'school_fee' and f.payment_option = ${option} and f.level = ${level}
          and f.session = ${session} and f.replaced_at is null
          and (f.programme_id is null or f.programme_id = students.programme_id)
          and (f.study_mode is null or f.study_mode = students.study_mode)
        order by f.programme_id is null, f.study_mode is null
        limit 1)`,
      paid: sql<string[]>`array(
        select p.payment_option from payments p
        where p.student_id = students.id and p.level = ${level} and p.session = ${session}
          and p.status = 'success' and p.kind = 'school_fee')`,
      lateFeesFrom: sql<
        string | null
      >`(select a.late_fees_from::text from academic_sessions a where a.name = ${session})`,
    })
    .from(students)
    .where(eq(students.id, sql.placeholder("studentId")))
    .prepare("quote_reads");
});

/** The fee in force for `choice` and this student, what they have paid at its level and session, and the late-fee rule. */
export async function quoteReads(
  db: Database | Transaction,
  studentId: number,
  choice: FeeChoice,
  now: Date,
): Promise<{ fee: FeeInForce | null; paid: string[]; lateFee: string | null }> {
  const [row] = await quoteReadsQuery(db).execute({
    studentId,
    option: choice.option,
    level: choice.level,
    session: choice.session,
  });
  const lateFee =
    choice.option === "latefees"
      ? lateFeeRefusal(choice.session, row?.lateFeesFrom ?? null, collegeDate(now))
      : null;
  return { fee: row?.fee ?? null, paid: row?.paid ?? [], lateFee };
}

/** A fee in force: its id, amount, and the gateways the bursar allows for it (none: every one offered). */
export type FeeInForce = { id: number; amountKobo: number; allowedGateways: GatewayName[] };

/**
 * The fee in force for `choice` and this student, or null when none is set. Fees for the
 * student's own programme or study mode and fees for all of them can both match: the most
 * specific wins, programme before study mode (decision 095). The quote's read, so there is one
 * statement of the rule.
 */
export async function scheduledFee(
  db: Database | Transaction,
  choice: FeeChoice,
  studentId: number,
): Promise<FeeInForce | null> {
  const [row] = await quoteReadsQuery(db).execute({
    studentId,
    option: choice.option,
    level: choice.level,
    session: choice.session,
  });
  return row?.fee ?? null;
}

/**
 * The options a student has been credited for at one level in one session; by other payments
 * than `exceptReference` when given (a payment being credited asks what else settled its fee).
 */
export async function creditedOptions(
  db: Database | Transaction,
  studentId: number,
  where: Pick<FeeChoice, "level" | "session">,
  exceptReference?: string,
): Promise<string[]> {
  // No payment's reference is empty: "" excludes none.
  const rows = await creditedOptionsQuery(db).execute({
    studentId,
    level: where.level,
    session: where.session,
    exceptReference: exceptReference ?? "",
  });
  return rows.map((row) => row.option);
}

/** The refusal for a choice that has no scheduled fee. */
export function noFeeMessage(choice: FeeChoice): string {
  const label = PAYMENT_OPTIONS.find((option) => option.value === choice.option)?.label;
  return `No fee is set for ${label} at ${choice.level} level in ${choice.session}. Check your choices, or ask the bursary.`;
}

/** The college-wide fee of another kind than school fees in force (decision 182), or null when the bursar has set none. */
export async function otherFeeInForce(
  db: Database | Transaction,
  kind: Exclude<FeeKind, "school_fee">,
): Promise<FeeInForce | null> {
  const [row] = await db
    .select({
      id: feeSchedule.id,
      amountKobo: feeSchedule.amountKobo,
      allowedGateways: feeSchedule.allowedGateways,
    })
    .from(feeSchedule)
    .where(and(eq(feeSchedule.kind, kind), isNull(feeSchedule.replacedAt)));
  return row ?? null;
}
