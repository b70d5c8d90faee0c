import { z } from "zod";
import { PaymentRecord } from "./payment-record.ts";
import { SchoolFeeRequest } from "./fee-request.ts";
import { USSD_BANKS, type UssdBankCode } from "./ussd-banks.ts";
import { OFFLINE_CHANNELS } from "./channels.ts";

const USSD_CODES = USSD_BANKS.map((bank) => bank.code) as [UssdBankCode, ...UssdBankCode[]];

/** POST /student/school-fee/offline: the school-fee request plus how the student will pay. */
export const OfflinePaymentRequest = SchoolFeeRequest.extend({
  channel: z.enum(OFFLINE_CHANNELS, { error: "Choose bank transfer, USSD or Remita." }),
  ussd_bank: z
    .enum(USSD_CODES, { error: "Choose the bank whose USSD code you will dial." })
    .optional(),
}).refine((request) => request.channel !== "ussd" || request.ussd_bank, {
  path: ["ussd_bank"],
  message: "Choose the bank whose USSD code you will dial.",
});
export type OfflinePaymentRequest = z.input<typeof OfflinePaymentRequest>;

/** What the student needs to pay offline, as the gateway's charge answered it. */
export const PayInstructions = z.discriminatedUnion("channel", [
  z.object({
    channel: z.literal("bank_transfer"),
    bank_name: z.string(),
    account_number: z.string(),
    account_name: z.string(),
    /** ISO time after which the account no longer takes this payment. */
    expires_at: z.string(),
  }),
  z.object({ channel: z.literal("ussd"), ussd_code: z.string() }),
  z.object({
    channel: z.literal("remita"),
    /** The Remita Retrieval Reference: paid online on Remita's page or at any bank branch. */
    rrr: z.string(),
    /**
     * Remita's payment page takes the RRR as a form posted from the student's browser: `action`
     * is its absolute address, `fields` the hidden inputs (with the hash over the RRR).
     */
    pay_online: z.object({
      action: z.string(),
      fields: z.object({
        merchantId: z.string(),
        hash: z.string(),
        rrr: z.string(),
        responseurl: z.string(),
      }),
    }),
    /**
     * How the amount was split between the college's accounts when the RRR was made (Remita's
     * line items), as the printed invoice lists them; absent when it was not split.
     */
    line_items: z
      .array(z.object({ beneficiary_name: z.string(), amount_kobo: z.number().int() }))
      .optional(),
  }),
]);
export type PayInstructions = z.infer<typeof PayInstructions>;

/** One of the student's payments with what they need to finish it (GET /student/school-fee/{reference}). */
export const OfflinePayment = z.object({
  payment: PaymentRecord.extend({
    /** Why the portal closed it before it was paid (cancelled, fee changed, paid another way). */
    note: z.string().nullable().default(null),
  }),
  instructions: PayInstructions.nullable(),
});
export type OfflinePayment = z.infer<typeof OfflinePayment>;

/** The answer to starting an offline payment; "success" means the fee was already paid. */
export type OfflinePaymentAnswer =
  | { status: "success"; message: string }
  | { status: "pending"; message: string; reference: string; instructions: PayInstructions };
