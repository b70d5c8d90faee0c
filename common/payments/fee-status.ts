import type { PaymentComplete } from "../students/student-record.ts";

/** Payment options a student can choose on the Payment page (spec section 9). */
export const PAYMENT_OPTIONS = [
  { value: "full", label: "Full Payment" },
  { value: "part", label: "Part Payment" },
  { value: "second_installment", label: "Second Installment" },
  { value: "latefees", label: "Late Fees" },
] as const;
export type PaymentOption = (typeof PAYMENT_OPTIONS)[number]["value"];

export type FeeStatus = { label: string; tone: "success" | "warning" | "danger" };

/** Dashboard and payment-page label for school_fees_payment.payment_complete (spec section 4). */
export function feeStatus(paymentComplete: string | null | undefined): FeeStatus {
  if (paymentComplete === null || paymentComplete === undefined)
    return { label: "Not Paid", tone: "danger" };
  if (paymentComplete === "full") return { label: "Paid (Full Payment)", tone: "success" };
  if (paymentComplete === "part") return { label: "Paid (Part Payment)", tone: "warning" };
  return { label: "Not-Paid", tone: "danger" };
}

/** Whether a session's fee is settled, from the options the student has paid in it. */
export function paymentCompleteFrom(paidOptions: readonly string[]): PaymentComplete {
  const paid = new Set(paidOptions);
  if (paid.has("full") || (paid.has("part") && paid.has("second_installment"))) return "full";
  if (paid.has("part")) return "part";
  return null;
}

const INSTALLMENT_LABELS: Record<string, string> = {
  part: "First Installment",
  second_installment: "Second Installment",
  full: "Full",
  transcript: "Transcript Fee",
};

/** Payment Type on the slip (spec section 4); other options show as they are named. */
export function installmentLabel(installment: string): string {
  return (
    INSTALLMENT_LABELS[installment] ??
    PAYMENT_OPTIONS.find((option) => option.value === installment)?.label ??
    installment
  );
}

/** Print is offered for paid rows, Requery for the rest (case-insensitive, spec section 2). */
export const isPaidStatus = (status: string | null | undefined) =>
  /^(paid|success)$/i.test(status ?? "");

/** What a school-fee payment is for, in one line: "Full Payment, 100 level, 2024/2025 school fees". */
export const schoolFeeDescription = (payment: {
  installment: string;
  payment_level: number;
  payment_session: string;
}) =>
  `${PAYMENT_OPTIONS.find((option) => option.value === payment.installment)?.label ?? installmentLabel(payment.installment)}, ${payment.payment_level} level, ${payment.payment_session} school fees`;
