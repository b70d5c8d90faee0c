import { z } from "zod";
import { PaymentComplete } from "../students/student-record.ts";

/** One school-fee payment as the history table and the slip read it (spec section 3). */
export const PaymentRecord = z.object({
  paystack_ref: z.string(),
  generated_date: z.string(),
  /** When the payment was credited; null until then. */
  uploaded_date: z.string().nullable(),
  payment_level: z.number().int(),
  payment_session: z.string(),
  /** Naira. */
  amount_paid: z.number(),
  payment_status: z.string(),
  installment: z.string(),
  /** The gateway it goes through (paystack, remita): the one that alone can say it was paid. */
  gateway: z.string().default("paystack"),
  /** Remita's RRR for it, once Remita gave one; null for every other payment. */
  rrr: z.string().nullable().default(null),
});
export type PaymentRecord = z.infer<typeof PaymentRecord>;

/** A row of Payments Management: the payment, and what the server decided about showing it. */
export const PaymentHistoryRecord = PaymentRecord.extend({
  /**
   * No money was taken with this attempt and its fee is paid by another payment: the page shows
   * it as not used, without Requery, so it does not look like a payment gone missing.
   */
  unused_attempt: z.boolean(),
  /** A sentence under the status: a refund of it, or why it was closed when its fee changed. */
  note: z.string().nullable().default(null),
});
export type PaymentHistoryRecord = z.infer<typeof PaymentHistoryRecord>;

export const PaymentInfo = z.object({
  school_fees_payment: z.object({
    payment_complete: PaymentComplete,
    session: z.string().nullable(),
    /** What changed the status in words: a refunded payment, one closed when its fee changed. */
    notices: z.array(z.string()).default([]),
  }),
  hostel_fees_payment: z.null(),
  school_fee_payment: z.array(PaymentHistoryRecord),
});
export type PaymentInfo = z.infer<typeof PaymentInfo>;

/** A hostel invoice (spec section 3: Invoice); the student's own details come from their record. */
export const HostelInvoice = z.object({
  payment_ref: z.string(),
  generated_date: z.string(),
  /** Naira. */
  amount: z.number(),
  session: z.string(),
  payment_status: z.string(),
  room_type: z.object({ name: z.string(), num_of_occupants: z.number().int() }),
});
export type HostelInvoice = z.infer<typeof HostelInvoice>;

/** A credited school-fee payment as its slip prints it, with the signed link its QR code holds. */
export const SchoolFeeSlip = z.object({
  payment: PaymentRecord,
  channel: z.string().nullable(),
  verify_url: z.string(),
  /** The passport photo as a small data URI (null when none), so the slip needs no other request. */
  passport: z.string().nullable(),
});
export type SchoolFeeSlip = z.infer<typeof SchoolFeeSlip>;

export const HostelSlip = z.object({
  invoice: HostelInvoice,
  verify_url: z.string(),
  passport: z.string().nullable(),
});
export type HostelSlip = z.infer<typeof HostelSlip>;

/** What the public verification page shows about a genuine slip. */
export const SlipCheck = z.object({
  kind: z.enum(["school-fee", "hostel"]),
  reference: z.string(),
  name: z.string(),
  matric_no: z.string().nullable(),
  /** Naira. */
  amount: z.number(),
  session: z.string(),
  /** When it was paid (ISO). */
  date: z.string(),
  description: z.string(),
});
export type SlipCheck = z.infer<typeof SlipCheck>;

/** A Remita payment's printable invoice: the RRR to pay at a bank, and the signed link its QR holds. */
export const RemitaInvoice = z.object({
  payment: PaymentRecord,
  rrr: z.string(),
  /** How the amount is split between the college's accounts, when it is. */
  line_items: z.array(z.object({ beneficiary_name: z.string(), amount_kobo: z.number() })),
  verify_url: z.string(),
});
export type RemitaInvoice = z.infer<typeof RemitaInvoice>;

/**
 * What the public check of an invoice's QR shows: whose invoice it is, for what, and whether it
 * has been paid (the portal's record, so a bank or the bursary can trust it).
 */
export const InvoiceCheck = z.object({
  rrr: z.string(),
  reference: z.string(),
  name: z.string(),
  matric_no: z.string().nullable(),
  /** Naira. */
  amount: z.number(),
  description: z.string(),
  /** When the invoice was made (ISO). */
  issued: z.string(),
  /** "paid", "awaiting payment" (still payable), or "closed" (no longer payable). */
  state: z.enum(["paid", "awaiting payment", "closed"]),
  /** When it was paid (ISO); null until then. */
  paid: z.string().nullable(),
});
export type InvoiceCheck = z.infer<typeof InvoiceCheck>;
