import { and, eq } from "drizzle-orm";
import type { ApiDeps } from "../deps.ts";
import { payments, students } from "../db/schema.ts";
import { ApiError } from "../http/errors.ts";
import { readSignedToken, signToken } from "../verification/signed-token.ts";
import { toPaymentRecord } from "./payment-info.ts";
import type { InvoiceCheck, RemitaInvoice } from "../../common/payments/payment-record.ts";
import { schoolFeeDescription } from "../../common/payments/fee-status.ts";

type InvoiceDeps = Pick<ApiDeps, "db" | "publicOrigin" | "slipSigningKey">;
type PaymentRow = typeof payments.$inferSelect;

const NO_INVOICE =
  "There is no Remita payment with that reference, so there is no invoice to print. Start one from the Payment page with Pay with Remita.";
const NOT_GENUINE =
  "This invoice could not be checked. It was not issued by this portal, or it has been altered.";

/**
 * The public page an invoice's QR code opens: signed for invoices alone (decision 181's tokens),
 * so neither a slip's link nor a guessed reference opens it.
 */
export const invoiceVerifyUrl = (origin: string, reference: string, key: string) =>
  `${origin}/verify/invoice/${signToken("payment-invoice", reference, key)}`;

/** The RRR a payment was given by Remita, with what the invoice prints about it; null for any other. */
function rrrOf(row: PaymentRow) {
  const instructions = row.payInstructions;
  if (row.gateway !== "remita" || !row.gatewayReference || instructions?.channel !== "remita")
    return null;
  return { rrr: row.gatewayReference, lineItems: instructions.line_items ?? [] };
}

/** The printable invoice of one of the student's own Remita payments (decision 189). */
export async function remitaInvoice(
  deps: InvoiceDeps,
  studentId: number,
  reference: string,
): Promise<RemitaInvoice> {
  const [row] = await deps.db
    .select()
    .from(payments)
    .where(and(eq(payments.reference, reference), eq(payments.studentId, studentId)));
  const rrr = row && rrrOf(row);
  if (!row || !rrr) throw new ApiError(404, NO_INVOICE);
  return {
    payment: toPaymentRecord(row),
    rrr: rrr.rrr,
    line_items: rrr.lineItems,
    verify_url: invoiceVerifyUrl(deps.publicOrigin, reference, deps.slipSigningKey),
  };
}

/** What the public check of an invoice's QR shows; a 404 when the token is not genuine. */
export async function checkInvoice(deps: InvoiceDeps, token: string): Promise<InvoiceCheck> {
  const read = readSignedToken(token, deps.slipSigningKey, ["payment-invoice"]);
  if (!read) throw new ApiError(404, NOT_GENUINE);
  const [found] = await deps.db
    .select({ payment: payments, student: students })
    .from(payments)
    .innerJoin(students, eq(students.id, payments.studentId))
    .where(eq(payments.reference, read.subject));
  const rrr = found && rrrOf(found.payment);
  if (!found || !rrr) throw new ApiError(404, NOT_GENUINE);
  const { payment, student } = found;
  return {
    rrr: rrr.rrr,
    reference: payment.reference,
    name: `${student.surname} ${student.othername}`,
    matric_no: student.matricNo,
    amount: payment.amountKobo / 100,
    description: schoolFeeDescription(toPaymentRecord(payment)),
    issued: payment.generatedAt.toISOString(),
    state:
      payment.status === "success"
        ? "paid"
        : payment.status === "pending"
          ? "awaiting payment"
          : "closed",
    paid:
      payment.status === "success" ? (payment.paidAt ?? payment.generatedAt).toISOString() : null,
  };
}
