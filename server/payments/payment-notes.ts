import type { payments } from "../db/schema.ts";
import { formatKobo } from "../../common/payments/bursary.ts";
import { isPortalClosingNote } from "./closing-notes.ts";

type Payment = typeof payments.$inferSelect;

/** A refund of one payment, as the student is told of it. */
export type StudentRefund = {
  amountKobo: number;
  currency: string;
  status: string;
  paymentStatusBefore: string;
};

/**
 * What the student reads under a payment's status (decisions 151, 152): a refund, whole or in
 * part, and whether the payment still counts towards their fees; or why a payment was closed
 * when its fee changed. Null when there is nothing to say.
 */
export function paymentNote(row: Payment, refund: StudentRefund | undefined): string | null {
  if (refund) {
    const amount = formatKobo(refund.amountKobo, refund.currency);
    const done = refund.status === "processed";
    if (refund.paymentStatusBefore !== "success")
      return done ? `${amount} refunded to you.` : `A refund of ${amount} is on its way to you.`;
    const paidKobo = row.paidAmountKobo ?? row.amountKobo;
    if (refund.amountKobo >= paidKobo) {
      return `${done ? `Refunded to you in full (${amount})` : `Being refunded to you in full (${amount})`}: this payment no longer counts towards your school fees.`;
    }
    return `${done ? `${amount} of this payment was refunded to you` : `A refund of ${amount} of this payment is on its way to you`}; the payment still counts towards your school fees.`;
  }
  if (row.status === "abandoned" && isPortalClosingNote(row.gatewayResponse))
    return row.gatewayResponse;
  return null;
}

/**
 * The sentences the dashboard and the Payment page show beside the fee status, for the payments
 * of the session and level it is about: a refund that changed (or did not change) what counts,
 * a payment closed because its fee changed.
 */
export function feeStatusNotices(
  rows: readonly Payment[],
  refundsByPayment: ReadonlyMap<number, StudentRefund>,
  session: string | null,
  level: number,
): string[] {
  if (!session) return [];
  const thisSession = rows.filter((row) => row.session === session && row.level === level);
  const credited = thisSession
    .filter((row) => row.status === "success")
    .map((row) => row.paymentOption);
  return thisSession.flatMap((row) => {
    const refund = refundsByPayment.get(row.id);
    if (refund && refund.paymentStatusBefore !== "success") return [];
    // "Start a new payment" is no longer news once the student has.
    if (!refund && (credited.includes(row.paymentOption) || credited.includes("full"))) return [];
    const note = paymentNote(row, refund);
    return note ? [`Payment ${row.reference}: ${note}`] : [];
  });
}
