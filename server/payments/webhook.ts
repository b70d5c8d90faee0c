import { Hono } from "hono";
import { z } from "zod";
import type { ApiDeps } from "../deps.ts";
import type { ApiEnv } from "../http/context.ts";
import { isValidPaystackSignature } from "../paystack/signature.ts";
import { applyProviderResult, paymentByReference } from "./credit.ts";
import { applyRefundEvent, RefundEvent } from "./refund-webhook.ts";

// Only what crediting reads; Paystack's event carries much more (see sandbox-store toVerifyData).
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
const AnyEvent = z.object({ event: z.string() });

/**
 * POST /paystack/webhook: Paystack's signed events. Only `charge.success`, `refund.processed`
 * and `refund.failed` with a valid x-paystack-signature over the raw body change anything; everything else is logged and
 * answered at once, so Paystack does not retry what we will never accept.
 */
export function paystackWebhookRoutes(deps: ApiDeps) {
  const app = new Hono<ApiEnv>();

  app.post("/paystack/webhook", async (c) => {
    // The signature covers the bytes Paystack sent, so read them before any JSON parsing.
    const rawBody = await c.req.text();
    if (
      !isValidPaystackSignature(
        rawBody,
        c.req.header("x-paystack-signature"),
        deps.paystackSecretKey,
      )
    ) {
      deps.logger.warn("paystack webhook refused: bad signature");
      return c.json({ status: "error", message: "Invalid signature." }, 401);
    }
    const body = parseJson(rawBody);
    const refund = RefundEvent.safeParse(body);
    if (refund.success) {
      const done = await applyRefundEvent(deps, refund.data);
      deps.logger.info("paystack refund webhook", {
        event: refund.data.event,
        reference: refund.data.data.transaction_reference,
        done,
      });
      return c.json({ status: "success", message: done });
    }
    const event = ChargeSuccess.safeParse(body);
    if (!event.success) {
      deps.logger.info("paystack webhook ignored", {
        event: AnyEvent.safeParse(body).data?.event ?? null,
      });
      return c.json({ status: "success", message: "Ignored." });
    }
    const { data } = event.data;
    const [payment] = await paymentByReference(deps.db).execute({ reference: data.reference });
    if (!payment) {
      deps.logger.warn("paystack webhook for an unknown reference", { reference: data.reference });
      return c.json({ status: "success", message: "Unknown reference." });
    }
    const outcome = await applyProviderResult(
      deps,
      payment,
      {
        status: data.status,
        amountKobo: data.amount,
        currency: data.currency,
        paidAt: data.paid_at ? new Date(data.paid_at) : null,
        channel: data.channel ?? null,
        gatewayResponse: data.gateway_response ?? null,
      },
      "webhook",
    );
    return c.json({ status: "success", message: outcome.kind });
  });

  return app;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
