import { z } from "zod";

// These follow Paystack's OpenAPI schemas (TransactionInitializeResponse, VerifyResponse,
// Error) but only demand the fields our payment flow reads, so that Paystack adding or
// dropping an unrelated field does not break checkout.

/** Any Paystack JSON answer: `status` says whether the request succeeded. */
export const PaystackEnvelope = z.object({
  status: z.boolean(),
  message: z.string(),
});

/** `POST /transaction/initialize`, 200. */
export const InitializeResponse = z.object({
  status: z.literal(true),
  message: z.string(),
  data: z.object({
    authorization_url: z.string().min(1),
    access_code: z.string().min(1),
    reference: z.string().min(1),
  }),
});
export type InitializeResponse = z.infer<typeof InitializeResponse>;

const TransactionData = z.object({
  status: z.string().min(1),
  reference: z.string().min(1),
  amount: z.number().int().nonnegative(),
  currency: z.string().min(1),
  paid_at: z
    .string()
    .refine((value) => !Number.isNaN(Date.parse(value)), "paid_at is not a date")
    .nullish(),
  channel: z.string().nullish(),
  gateway_response: z.string().nullish(),
});

/** `GET /transaction/verify/{reference}`, 200. */
export const VerifyResponse = z.object({
  status: z.literal(true),
  message: z.string(),
  data: TransactionData,
});
export type VerifyResponse = z.infer<typeof VerifyResponse>;

/** `GET /transaction`, 200: a page of transactions and the page count. */
export const TransactionListResponse = z.object({
  status: z.literal(true),
  message: z.string(),
  data: z.array(
    TransactionData.extend({
      created_at: z.string().refine((value) => !Number.isNaN(Date.parse(value))),
    }),
  ),
  meta: z.object({ pageCount: z.number().int().min(1) }),
});

/** `POST /refund`, 200: the refund Paystack queued. */
export const RefundResponse = z.object({
  status: z.literal(true),
  message: z.string(),
  data: z.object({ id: z.number().int(), status: z.string().min(1) }),
});

/** `GET /refund`, 200: a page of refunds, each with the reference of the transaction it refunds. */
export const RefundListResponse = z.object({
  status: z.literal(true),
  message: z.string(),
  data: z.array(
    z.object({
      id: z.number().int(),
      transaction_reference: z.string().min(1),
      amount: z.number().int().nonnegative(),
      currency: z.string().min(1),
      status: z.string().min(1),
      createdAt: z.string().refine((value) => !Number.isNaN(Date.parse(value))),
    }),
  ),
  meta: z.object({ pageCount: z.number().int().min(1) }),
});
