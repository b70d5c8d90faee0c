import { and, eq } from "drizzle-orm";
import type { ApiDeps } from "../deps.ts";
import { payments, students } from "../db/schema.ts";
import { ApiError } from "../http/errors.ts";
import type { HostelSlip, SchoolFeeSlip, SlipCheck } from "../../common/payments/payment-record.ts";
import { isPaidStatus } from "../../common/payments/fee-status.ts";
import { toPaymentRecord } from "./payment-info.ts";
import { findHostelInvoice } from "./hostel.ts";
import { slipPhoto } from "./slip-photo.ts";
import { readSlipToken, slipVerifyUrl } from "./slip-token.ts";

type SlipDeps = Pick<ApiDeps, "db" | "publicOrigin" | "slipSigningKey" | "photos">;
type SlipOwner = { id: number; photo: string | null };

const NO_SLIP =
  "There is no paid payment with that reference, so there is no slip to print. Open Payments Management and press Requery if you have paid.";

/** The school-fee slip of one of the student's own credited payments. */
export async function schoolFeeSlip(
  deps: SlipDeps,
  student: SlipOwner,
  reference: string,
): Promise<SchoolFeeSlip> {
  const [payment] = await deps.db
    .select()
    .from(payments)
    .where(and(eq(payments.reference, reference), eq(payments.studentId, student.id)));
  if (!payment || payment.status !== "success") throw new ApiError(404, NO_SLIP);
  return {
    payment: toPaymentRecord(payment),
    channel: payment.channel,
    verify_url: slipVerifyUrl(deps.publicOrigin, "school-fee", reference, deps.slipSigningKey),
    passport: await slipPhoto(deps.photos, student.photo),
  };
}

/** The hostel slip of one of the student's own paid hostel invoices. */
export async function hostelSlip(
  deps: SlipDeps,
  student: SlipOwner,
  reference: string,
): Promise<HostelSlip> {
  const found = await findHostelInvoice(deps.db, reference, student.id);
  if (!found || !isPaidStatus(found.invoice.payment_status)) throw new ApiError(404, NO_SLIP);
  return {
    invoice: found.invoice,
    verify_url: slipVerifyUrl(deps.publicOrigin, "hostel", reference, deps.slipSigningKey),
    passport: await slipPhoto(deps.photos, student.photo),
  };
}

const NOT_GENUINE =
  "This slip could not be verified. It was not issued by this portal, or it has been altered.";

/** What the public verification page shows for a token; a 404 when the slip is not genuine. */
export async function checkSlip(deps: SlipDeps, token: string): Promise<SlipCheck> {
  const slip = readSlipToken(token, deps.slipSigningKey);
  if (!slip) throw new ApiError(404, NOT_GENUINE);
  if (slip.kind === "school-fee") {
    const [row] = await deps.db
      .select({ payment: payments, student: students })
      .from(payments)
      .innerJoin(students, eq(students.id, payments.studentId))
      .where(eq(payments.reference, slip.reference));
    if (!row || row.payment.status !== "success") throw new ApiError(404, NOT_GENUINE);
    return {
      kind: "school-fee",
      reference: slip.reference,
      name: `${row.student.surname} ${row.student.othername}`,
      matric_no: row.student.matricNo,
      amount: row.payment.amountKobo / 100,
      session: row.payment.session,
      date: (row.payment.paidAt ?? row.payment.generatedAt).toISOString(),
      description: "School Fee Payment",
    };
  }
  const found = await findHostelInvoice(deps.db, slip.reference);
  if (!found || !isPaidStatus(found.invoice.payment_status)) throw new ApiError(404, NOT_GENUINE);
  const [student] = await deps.db.select().from(students).where(eq(students.id, found.studentId));
  return {
    kind: "hostel",
    reference: slip.reference,
    name: `${student!.surname} ${student!.othername}`,
    matric_no: student!.matricNo,
    amount: found.invoice.amount,
    session: found.invoice.session,
    date: found.invoice.generated_date,
    description: "Hostel Payment",
  };
}
