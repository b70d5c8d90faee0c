import { z } from "zod";
import { PAYMENT_LEVELS } from "./fees.ts";
import type { GatewayName } from "./gateway-names.ts";

const PaymentOptionField = z.enum(["full", "part", "second_installment", "latefees"], {
  error: "Choose a payment category: Full Payment, Part Payment, Second Installment or Late Fees.",
});

// Select boxes send strings; scripts may send numbers. Both mean the same level.
const LevelField = z.coerce
  .number({ error: "Choose a level from 100 to 500." })
  .int("Choose a level from 100 to 500.")
  .refine(
    (level) => (PAYMENT_LEVELS as readonly number[]).includes(level),
    "Choose a level from 100 to 500.",
  );

const SessionField = z
  .string({ error: "Choose a session." })
  .trim()
  .regex(/^\d{4}\/\d{4}$/, "Choose a session such as 2024/2025.");

/** POST /student/generate-payment (spec section 7). Fields beyond these are ignored. */
export const QuoteRequest = z.object({
  payment_name: z.literal("schoolfees", { error: "Only school fees can be quoted here." }),
  payment_option: PaymentOptionField,
  payment_level: LevelField,
  payment_session: SessionField,
});
export type QuoteRequest = z.input<typeof QuoteRequest>;

/** POST /student/school-fee (spec section 3). The amount is never taken from the browser. */
export const SchoolFeeRequest = z.object({
  student_id: z.coerce
    .number({ error: "The student id must be a number." })
    .int("The student id must be a whole number.")
    .positive("The student id must be a positive number.")
    .max(2_147_483_647, "The student id is out of range."),
  payment_option: PaymentOptionField,
  payment_level: LevelField,
  payment_session: SessionField,
});
export type SchoolFeeRequest = z.input<typeof SchoolFeeRequest>;

/**
 * The quote: `data.amount` in naira, and the gateways the student may pay it through (those the
 * portal offers that the bursar allows for this fee); the Payment page offers only their ways.
 */
export type QuoteAnswer = {
  status: "success";
  message: string;
  data: { amount: number; gateways: GatewayName[] };
};

/**
 * The initialisation answer. `status: "success"` means this fee was already paid (the page says
 * 'Payment already made'); `status: "pending"` carries the checkout address to send the browser to.
 */
export type SchoolFeeAnswer =
  | { status: "success"; message: string }
  | { status: "pending"; message: string; authorization_url: string; reference: string };
