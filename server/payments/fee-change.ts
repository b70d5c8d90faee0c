import type { Database, Transaction } from "../db/client.ts";
import { payments } from "../db/schema.ts";
import { formatKobo } from "../../common/payments/bursary.ts";
import type { PaymentOption } from "../../common/payments/fee-status.ts";
import { otherFeeInForce, scheduledFee } from "./fee-schedule.ts";

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
  const choice = {
    option: payment.paymentOption as PaymentOption,
    level: payment.level,
    session: payment.session,
  };
  const fee = await scheduledFee(db, choice, payment.studentId);
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
