import { and, eq } from "drizzle-orm";
import type { Database, Transaction } from "../db/client.ts";
import { payments, students } from "../db/schema.ts";
import { formatKobo } from "../../common/payments/bursary.ts";
import type { PaymentOption } from "../../common/payments/fee-status.ts";
import { otherFeeInForce, scheduledFee } from "./fee-schedule.ts";
import { recordPaymentEvent } from "./payment-events.ts";

/** A payment started before its fee changed may still be paid at its old amount for this long (decision 152). */
export const FEE_CHANGE_GRACE_MS = 24 * 60 * 60_000;

type Payment = Pick<
  typeof payments.$inferSelect,
  "id" | "studentId" | "kind" | "paymentOption" | "level" | "session" | "amountKobo" | "generatedAt"
>;

/**
 * The amount now in force for the fee `payment` was started against, when it differs from what
 * the payment asks (the bursar edited or replaced the fee, or a more specific fee now applies);
 * null when it is the same, or when no fee is in force any more.
 */
export async function changedFeeKobo(
  db: Database | Transaction,
  payment: Payment,
): Promise<number | null> {
  if (payment.kind !== "school_fee") {
    const fee = await otherFeeInForce(db, payment.kind);
    return fee && fee.amountKobo !== payment.amountKobo ? fee.amountKobo : null;
  }
  const [payer] = await db
    .select({ programmeId: students.programmeId, studyMode: students.studyMode })
    .from(students)
    .where(eq(students.id, payment.studentId));
  if (!payer) return null;
  const choice = {
    option: payment.paymentOption as PaymentOption,
    level: payment.level,
    session: payment.session,
  };
  const fee = await scheduledFee(db, choice, payer);
  return fee && fee.amountKobo !== payment.amountKobo ? fee.amountKobo : null;
}

/** Started more than 24 hours ago, and its fee has changed since: not to be paid at the old amount. */
export async function outdatedBy(
  db: Database | Transaction,
  payment: Payment,
  now: Date,
): Promise<number | null> {
  if (now.getTime() - payment.generatedAt.getTime() <= FEE_CHANGE_GRACE_MS) return null;
  return changedFeeKobo(db, payment);
}

/** What the student and the bursary read on a payment closed because its fee changed. */
export const feeChangedNote = (newKobo: number) =>
  `The fee changed to ${formatKobo(newKobo)} after this payment was started, and it was not paid within 24 hours, so it is closed. Start a new payment at ${formatKobo(newKobo)} from the Payment page.`;
export const FEE_CHANGED_NOTE_START = "The fee changed to ";

/**
 * Closes a pending payment Paystack says is unpaid when it is more than 24 hours old and its fee
 * has changed: `abandoned`, with the new amount in its note. Money Paystack takes for it later
 * is still credited, at what was received, and flagged (decision 152). Answers the note, or null
 * when the payment stays open.
 */
export async function abandonIfFeeChanged(
  db: Database,
  payment: Payment,
  now: Date,
): Promise<string | null> {
  const newKobo = await outdatedBy(db, payment, now);
  if (newKobo === null) return null;
  const note = feeChangedNote(newKobo);
  return db.transaction(async (tx) => {
    const [closed] = await tx
      .update(payments)
      .set({ status: "abandoned", gatewayResponse: note, lastCheckedAt: now })
      .where(and(eq(payments.id, payment.id), eq(payments.status, "pending")))
      .returning({ id: payments.id });
    if (!closed) return null;
    await recordPaymentEvent(tx, payment.id, "abandoned", now, {
      note,
      fee_changed_to_kobo: newKobo,
    });
    return note;
  });
}
