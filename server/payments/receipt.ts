import type { Transaction } from "../db/client.ts";
import type { JobQueue } from "../jobs/api-jobs.ts";
import type { MailMessage } from "../mail/mailer.ts";
import { formatSlipDate } from "../../common/format/dates.ts";
import { formatNaira, koboToNaira } from "../../common/format/money.ts";
import { PAYMENT_OPTIONS } from "../../common/payments/fee-status.ts";
import type { payments } from "../db/schema.ts";
import { slipVerifyUrl } from "./slip-token.ts";
import { internationalPhone } from "../sms/phone-numbers.ts";
import { receiptText } from "../sms/templates.ts";

// The row as credit.ts reads it; named from the schema here because credit.ts calls this module.
type PaymentRow = typeof payments.$inferSelect;

/** Mails and texts the student a receipt for a payment just credited (decisions 096, 200). */
export type PaymentReceipts = {
  /** Called inside the crediting transaction: the receipt is queued exactly when the credit commits. */
  enqueue(tx: Transaction, payment: PaymentRow, payer: Payer): Promise<void>;
};

/** Whom the receipt goes to; the crediting transaction reads it with the lock it takes on the student. */
export type Payer = { email: string | null; phone: string; surname: string; othername: string };

/** The receipt: plain text, so every mail client shows the verification link. */
export function receiptMail(
  payment: PaymentRow,
  payer: Payer & { email: string },
  verifyUrl: string,
): MailMessage {
  const isSchoolFee = payment.kind === "school_fee";
  const what = paidFor(payment);
  return {
    to: payer.email,
    subject: `Payment receipt: ${what}`,
    text: [
      `Dear ${payer.othername} ${payer.surname},`,
      "",
      `The college has received your ${isSchoolFee ? "school fees payment" : "payment"} of ${formatNaira(koboToNaira(payment.amountKobo))} for ${what}.`,
      "",
      `Reference: ${payment.reference}`,
      `Paid: ${formatSlipDate(payment.paidAt ?? payment.generatedAt)}`,
      "",
      "Anyone can check that this payment is genuine at:",
      verifyUrl,
      "",
      isSchoolFee
        ? "Print your payment slip from the Payments page of the portal."
        : "Your transcript is sent once the exams office releases it; the Transcript page shows where it stands.",
    ].join("\n"),
  };
}

/** What a payment was for, as the receipt names it: "First Installment, 200 level, 2024/2025". */
function paidFor(payment: PaymentRow) {
  const option =
    PAYMENT_OPTIONS.find((entry) => entry.value === payment.paymentOption)?.label ??
    payment.paymentOption;
  return payment.kind === "school_fee"
    ? `${option}, ${payment.level} level, ${payment.session}`
    : "Transcript fee";
}

export function createPaymentReceipts(deps: {
  jobs: JobQueue;
  publicOrigin: string;
  slipSigningKey: string;
}): PaymentReceipts {
  return {
    async enqueue(tx, payment, payer) {
      // Every student has a phone on the record: the SMS receipt goes whatever else does.
      await deps.jobs.sendSms(tx, {
        key: `receipt:${payment.id}`,
        kind: "receipt",
        studentId: payment.studentId,
        to: internationalPhone(payer.phone),
        text: receiptText({
          amountKobo: payment.amountKobo,
          what: paidFor(payment),
          reference: payment.reference,
        }),
      });
      // No address, no receipt mail: the slip on the Payments page is the receipt (decision 156).
      if (!payer.email) return;
      const addressed = { ...payer, email: payer.email };
      const verifyUrl = slipVerifyUrl(
        deps.publicOrigin,
        "school-fee",
        payment.reference,
        deps.slipSigningKey,
      );
      await deps.jobs.sendMail(tx, receiptMail(payment, addressed, verifyUrl));
    },
  };
}
