import { z } from "zod";
import type { GatewayNotification } from "../payments/gateway.ts";
import { isValidPaystackSignature } from "./signature.ts";
import { toTransaction } from "./client.ts";

// Only what crediting and refunds read; Paystack's events carry much more (see sandbox-store toVerifyData).
const ChargeSuccess = z.object({
  event: z.literal("charge.success"),
  data: z.object({
    reference: z.string().min(1).max(100),
    status: z.string(),
    amount: z.number().int().nonnegative(),
    currency: z.string(),
    paid_at: z
      .string()
      .refine((value) => !Number.isNaN(Date.parse(value)))
      .nullish(),
    channel: z.string().nullish(),
    gateway_response: z.string().nullish(),
  }),
});

const RefundEvent = z.object({
  event: z.enum(["refund.processed", "refund.failed"]),
  data: z.object({
    id: z.number().int().optional(),
    transaction_reference: z.string().min(1).max(100),
    amount: z.number().int().nonnegative(),
    currency: z.string(),
  }),
});

const AnyEvent = z.object({ event: z.string() });

/**
 * A Paystack webhook, believed only with a valid x-paystack-signature over the raw body (null
 * otherwise). `charge.success`, `refund.processed` and `refund.failed` are read; any other event,
 * or one missing what we read, is ignored.
 */
export function readPaystackNotification(
  rawBody: string,
  signature: string | null | undefined,
  secretKey: string,
): GatewayNotification | null {
  if (!isValidPaystackSignature(rawBody, signature, secretKey)) return null;
  const body = parseJson(rawBody);
  const refund = RefundEvent.safeParse(body);
  if (refund.success) {
    const { event, data } = refund.data;
    return {
      kind: "refund",
      outcome: event === "refund.processed" ? "processed" : "failed",
      refundId: data.id ?? null,
      reference: data.transaction_reference,
      amountKobo: data.amount,
      currency: data.currency,
    };
  }
  const charge = ChargeSuccess.safeParse(body);
  if (!charge.success)
    return { kind: "ignored", event: AnyEvent.safeParse(body).data?.event ?? null };
  return { kind: "payment", transaction: toTransaction(charge.data.data) };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
