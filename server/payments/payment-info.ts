import { desc, eq, getTableColumns, sql } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { payments } from "../db/schema.ts";
import type { PaymentInfo, PaymentRecord } from "../../common/payments/payment-record.ts";
import { preparedQuery } from "../db/prepared.ts";
import { paymentCompleteFrom } from "../../common/payments/fee-status.ts";
import { isUnusedAttempt } from "./unused-attempts.ts";
import { feeStatusNotices, paymentNote, type StudentRefund } from "./payment-notes.ts";

/**
 * `amount_paid` is what Paystack received once it says so (a mismatch differs from the fee), in
 * naira; a payment in another currency keeps showing its fee, since a dollar sum under a naira
 * sign would be wrong too. A credited payment's two amounts agree, so its slip is unchanged.
 */
export function toPaymentRecord(row: typeof payments.$inferSelect): PaymentRecord {
  const received =
    row.paidAmountKobo !== null && (row.paidCurrency ?? row.currency) === row.currency;
  return {
    paystack_ref: row.reference,
    generated_date: row.generatedAt.toISOString(),
    uploaded_date: row.paidAt?.toISOString() ?? null,
    payment_level: row.level,
    payment_session: row.session,
    amount_paid: (received ? row.paidAmountKobo! : row.amountKobo) / 100,
    payment_status: row.status,
    installment: row.paymentOption,
    gateway: row.gateway,
    rrr: row.gateway === "remita" ? row.gatewayReference : null,
  };
}

/**
 * Every payment of a student, newest first, each with the refund Paystack or the bursary was asked
 * for, if any: one statement, as every page showing the fee status reads it. A payment has at most
 * one refund that is not failed or declined (`refunds_one_live_per_payment`), and only pending and
 * processed ones are told to the student.
 */
export const paymentsOfStudent = preparedQuery((db) =>
  db
    .select({
      ...getTableColumns(payments),
      // Written out by hand: Drizzle leaves columns unqualified in a one-table select, and the
      // refund's id and status would then be the payment's.
      refund: sql<StudentRefund | null>`(
        select json_build_object(
          'amountKobo', r.amount_kobo,
          'currency', r.currency,
          'status', r.status,
          'paymentStatusBefore', r.payment_status_before)
        from refunds r
        where r.payment_id = "payments"."id" and r.status in ('pending', 'processed'))`,
    })
    .from(payments)
    .where(eq(payments.studentId, sql.placeholder("studentId")))
    .orderBy(desc(payments.generatedAt), desc(payments.id))
    .prepare("payments_of_student"),
);

/**
 * What GET /student/payment-info/{id} answers: the fee status in `session` (the current one, which
 * the signed-in student's lookup already read) at the student's `level`, and every payment.
 */
export async function loadPaymentInfo(
  db: Database,
  studentId: number,
  session: string | null,
  level: number,
): Promise<PaymentInfo> {
  const rows = await paymentsOfStudent(db).execute({ studentId });
  const refundsByPayment = new Map(
    rows.flatMap((row) => (row.refund ? [[row.id, row.refund] as const] : [])),
  );
  // The fee status comes from the rows in hand: every payment of the student is among them. A fee
  // of another level paid in the session does not settle it.
  const paidThisSession = rows.filter(
    (row) =>
      row.kind === "school_fee" &&
      row.session === session &&
      row.level === level &&
      row.status === "success",
  );
  return {
    school_fees_payment: {
      payment_complete: session
        ? paymentCompleteFrom(paidThisSession.map((row) => row.paymentOption))
        : null,
      session,
      notices: feeStatusNotices(rows, refundsByPayment, session, level),
    },
    hostel_fees_payment: null,
    school_fee_payment: rows.map((row) => ({
      ...toPaymentRecord(row),
      unused_attempt: isUnusedAttempt(row, rows),
      note: paymentNote(row, refundsByPayment.get(row.id)),
    })),
  };
}
