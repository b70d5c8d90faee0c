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
});
export type PaymentRecord = z.infer<typeof PaymentRecord>;

export const PaymentInfo = z.object({
  school_fees_payment: z.object({ payment_complete: PaymentComplete, session: z.string().nullable() }),
  hostel_fees_payment: z.null(),
  school_fee_payment: z.array(PaymentRecord),
});
export type PaymentInfo = z.infer<typeof PaymentInfo>;
