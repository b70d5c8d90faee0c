import { setTimeout as sleep } from "node:timers/promises";
import { Hono } from "hono";
import type { ApiDeps } from "../deps.ts";
import type { ApiEnv } from "../http/context.ts";
import { and, eq, or } from "drizzle-orm";
import { payments } from "../db/schema.ts";
import { applyProviderResult, paymentByReference } from "./credit.ts";
import { GatewayError, type PaymentAtGateway, type PaymentGateway } from "./gateway.ts";
import { applyRefundEvent } from "./refund-webhook.ts";

/**
 * POST /{gateway}/webhook (Paystack's at /paystack/webhook): each gateway's notifications. Only a
 * notification the gateway proves is its own is believed as it stands; an unsigned one (Remita's)
 * only names payments, each of which we then ask the gateway about ourselves. Either way a
 * payment's state goes through the one crediting path, a refund's outcome settles our refund.
 * Everything else is logged and answered at once, so the gateway does not retry what we will
 * never accept.
 */
export function gatewayWebhookRoutes(deps: ApiDeps) {
  const app = new Hono<ApiEnv>();
  for (const gateway of Object.values(deps.gateways)) {
    app.post(`/${gateway.name}/webhook`, async (c) => {
      // The signature covers the bytes the gateway sent, so read them before any JSON parsing.
      const rawBody = await c.req.text();
      const answer = await readAndApply(deps, gateway, rawBody, c.req.raw.headers);
      if (answer === null) return c.json({ status: "error", message: "Invalid signature." }, 401);
      // Remita's notifications expect the plain word OK; anything else, it sends again.
      if (answer.claims) return c.text("OK");
      return c.json({ status: "success", message: answer.done });
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
): Promise<{ done: string; claims: boolean } | null> {
  const done = await applyNotification(deps, gateway, rawBody, headers);
  if (done === null) return null;
  return typeof done === "string"
    ? { done, claims: false }
    : { done: done.join(", "), claims: true };
}

async function applyNotification(
  deps: ApiDeps,
  gateway: PaymentGateway,
  rawBody: string,
  headers: Headers,
): Promise<string | string[] | null> {
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
    case "claims": {
      // The gateway waits only seconds for its OK, and a status call can hang far longer (its
      // own servers busy on deadline day): the answer goes once the claims are confirmed or the
      // wait is up, whichever is first. Confirming goes on after the answer; a claim it cannot
      // confirm is the reconciler's, which checks a young pending payment every few minutes.
      const confirming = confirmClaims(deps, gateway, notification.payments);
      const waited = new AbortController();
      const answered = await Promise.race([
        confirming,
        sleep(CLAIMS_ANSWERED_WITHIN_MS, ["still confirming"], { signal: waited.signal }),
      ]);
      waited.abort();
      return answered;
    }
  }
}

/** How long a gateway's unsigned notification waits for its claims to be confirmed before its answer. */
export const CLAIMS_ANSWERED_WITHIN_MS = 3_000;

/** Confirms a notification's claims one at a time (each asks the gateway), and logs what came of them. */
async function confirmClaims(
  deps: ApiDeps,
  gateway: PaymentGateway,
  claims: PaymentAtGateway[],
): Promise<string[]> {
  const done: string[] = [];
  try {
    for (const claim of claims) done.push(await confirmClaim(deps, gateway, claim));
  } catch (error) {
    // Confirming may outlive the request that began it: nothing is left to throw to.
    deps.logger.error(`${gateway.name} notification could not be confirmed`, {
      error: String(error),
    });
    done.push("failed");
  }
  deps.logger.info(`${gateway.name} notification`, { claims: claims.length, done });
  return done;
}

/**
 * Believes an unsigned claim only as far as the gateway's own status call confirms it: the
 * payment is found by our reference or the gateway's, then asked about by us.
 */
async function confirmClaim(
  deps: ApiDeps,
  gateway: PaymentGateway,
  claim: PaymentAtGateway,
): Promise<string> {
  const [payment] = await deps.db
    .select()
    .from(payments)
    .where(
      and(
        eq(payments.gateway, gateway.name),
        or(
          eq(payments.reference, claim.reference),
          claim.gatewayReference === null
            ? undefined
            : eq(payments.gatewayReference, claim.gatewayReference),
        ),
      ),
    )
    .limit(1);
  if (!payment) {
    deps.logger.warn(`${gateway.name} notification for an unknown payment`, { ...claim });
    return "unknown";
  }
  if (payment.status === "success") return "already-credited";
  try {
    const transaction = await gateway.verify(payment);
    if (!transaction) return "unknown-at-gateway";
    return (await applyProviderResult(deps, payment, transaction, "webhook")).kind;
  } catch (error) {
    if (!(error instanceof GatewayError)) throw error;
    deps.logger.warn(`${gateway.name} status check after a notification failed`, {
      reference: payment.reference,
      error: error.message,
    });
    return "unconfirmed";
  }
}
