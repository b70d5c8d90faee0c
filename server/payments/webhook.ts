import { Hono } from "hono";
import type { ApiDeps } from "../deps.ts";
import type { ApiEnv } from "../http/context.ts";
import { applyProviderResult, paymentByReference } from "./credit.ts";
import type { PaymentGateway } from "./gateway.ts";
import { applyRefundEvent } from "./refund-webhook.ts";

/**
 * POST /{gateway}/webhook (Paystack's at /paystack/webhook): each gateway's signed notifications.
 * Only a notification the gateway proves is its own changes anything: a payment's state goes
 * through the one crediting path, a refund's outcome settles our refund. Everything else is
 * logged and answered at once, so the gateway does not retry what we will never accept.
 */
export function gatewayWebhookRoutes(deps: ApiDeps) {
  const app = new Hono<ApiEnv>();
  for (const gateway of Object.values(deps.gateways)) {
    app.post(`/${gateway.name}/webhook`, async (c) => {
      // The signature covers the bytes the gateway sent, so read them before any JSON parsing.
      const rawBody = await c.req.text();
      const answer = await readAndApply(deps, gateway, rawBody, c.req.raw.headers);
      return answer === null
        ? c.json({ status: "error", message: "Invalid signature." }, 401)
        : c.json({ status: "success", message: answer });
    });
  }
  return app;
}

/** What the notification did, for the answer and the log; null when its signature failed. */
async function readAndApply(
  deps: ApiDeps,
  gateway: PaymentGateway,
  rawBody: string,
  headers: Headers,
): Promise<string | null> {
  const { logger } = deps;
  const notification = gateway.readNotification(rawBody, headers);
  if (!notification) {
    logger.warn(`${gateway.name} webhook refused: bad signature`);
    return null;
  }
  switch (notification.kind) {
    case "ignored":
      logger.info(`${gateway.name} webhook ignored`, { event: notification.event });
      return "Ignored.";
    case "refund": {
      const done = await applyRefundEvent(deps, notification);
      logger.info(`${gateway.name} refund webhook`, {
        event: `refund.${notification.outcome}`,
        reference: notification.reference,
        done,
      });
      return done;
    }
    case "payment": {
      const { transaction } = notification;
      const [payment] = await paymentByReference(deps.db).execute({
        reference: transaction.reference,
      });
      if (!payment) {
        logger.warn(`${gateway.name} webhook for an unknown reference`, {
          reference: transaction.reference,
        });
        return "Unknown reference.";
      }
      return (await applyProviderResult(deps, payment, transaction, "webhook")).kind;
    }
  }
}
