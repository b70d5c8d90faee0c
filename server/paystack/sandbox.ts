import { Hono } from "hono";
import type { Context, MiddlewareHandler } from "hono";
import {
  renderCheckoutDone,
  renderCheckoutNotFound,
  renderCheckoutPage,
} from "./sandbox-checkout-page.ts";
import { sandboxChargeRoutes } from "./sandbox-charge.ts";
import type { WebhookDelivery } from "./sandbox-simulate-page.ts";
import { InitializeRequest, refusalFor } from "./sandbox-requests.ts";
import { createSandboxStore, toVerifyData } from "./sandbox-store.ts";
import type { SandboxTransaction } from "./sandbox-store.ts";
import type { Database } from "../db/client.ts";
import { signPaystackPayload } from "./signature.ts";
import { addRefunds } from "./sandbox-refunds.ts";
import { addTransactionList } from "./sandbox-transactions-list.ts";

const WEBHOOK_TIMEOUT_MS = 5_000;

/** How the sandbox fared sending a webhook. */

/**
 * Where the sandbox sends its webhooks: the API's webhook at the portal's public origin, as
 * Paystack would (the proxy refuses POSTs addressed to any other host name).
 */
export function sandboxWebhookUrl(publicOrigin: string): string {
  return new URL("/api/paystack/webhook", publicOrigin).toString();
}

/**
 * A local stand-in for Paystack, for development without a secret key. It answers
 * `POST /transaction/initialize` and `GET /transaction/verify/:reference` like Paystack, serves
 * a checkout page at `/checkout/:accessCode` where a person can pay, decline or abandon, and
 * POSTs signed `charge.success` webhooks to `webhookUrl`. `POST /charge` creates bank-transfer and
 * USSD charges, paid at `/simulate/:reference` (sandbox-charge.ts). State lives in the database
 * (sandbox-store.ts, decision 129): any instance answers for any transaction, and a payment left
 * pending survives a restart.
 *
 * It also answers `POST /__sandbox/transactions/:reference/pay` (same bearer key as the API):
 * marks the transaction paid and sends the webhook, without any browser or redirect. Tests use it
 * to simulate "the student paid but closed the tab" (with `?webhook=none`, "and the webhook was
 * lost too"); it answers
 * `{ status: true, data: { reference, status, webhook: "delivered" | "failed" | "not sent" } }`.
 */
export function createPaystackSandbox(options: {
  /** Where the sandbox keeps its transactions: its own tables in the portal's database. */
  db: Database;
  /** The key clients must send as `Authorization: Bearer …`; also signs the webhooks. */
  secretKey: string;
  /** Where browsers reach the sandbox, e.g. "http://localhost:4329". */
  publicUrl: string;
  /** Where signed `charge.success` events are POSTed. */
  webhookUrl: string;
  /** Sends the webhooks. */
  fetch?: typeof fetch;
  now?: () => Date;
  /** Refunds are processed (and refund.processed sent) this long after they are asked for; unset: only when a test says. */
  settleRefundsAfterMs?: number;
}): Hono {
  const { secretKey, webhookUrl } = options;
  const publicUrl = options.publicUrl.replace(/\/+$/, "");
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const now = options.now ?? (() => new Date());
  const store = createSandboxStore(options.db);
  const app = new Hono();

  const requireSecretKey: MiddlewareHandler = async (c, next) => {
    if (c.req.header("authorization") !== `Bearer ${secretKey}`) {
      return c.json({ status: false, message: "Invalid key" }, 401);
    }
    await next();
  };

  /** Never rejects: a receiver that is down must not break the checkout. */
  async function sendEvent(
    event: string,
    data: unknown,
    reference: string,
  ): Promise<WebhookDelivery> {
    const rawBody = JSON.stringify({ event, data });
    try {
      const response = await fetchImpl(webhookUrl, {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          "x-paystack-signature": signPaystackPayload(rawBody, secretKey),
        },
        body: rawBody,
        signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
      });
      if (response.ok) return "delivered";
      console.warn(
        `Paystack sandbox: ${event} webhook for ${reference} got HTTP ${response.status} from ${webhookUrl}`,
      );
    } catch (error) {
      console.warn(
        `Paystack sandbox: ${event} webhook for ${reference} could not reach ${webhookUrl}: ${String(error)}`,
      );
    }
    return "failed";
  }
  const sendChargeSuccess = (transaction: SandboxTransaction) =>
    sendEvent("charge.success", toVerifyData(transaction), transaction.reference);

  app.route("/", sandboxChargeRoutes({ store, now, requireSecretKey, sendChargeSuccess }));

  app.post("/transaction/initialize", requireSecretKey, async (c) => {
    const body: unknown = await c.req.json().catch(() => undefined);
    const parsed = InitializeRequest.safeParse(body);
    if (!parsed.success) return c.json(refusalFor(parsed.error), 400);
    const { email, amount, currency, callback_url, metadata } = parsed.data;
    const transaction = await store.create(
      {
        reference: parsed.data.reference,
        email,
        amountKobo: amount,
        currency,
        callbackUrl: callback_url ?? null,
        // Paystack reports absent metadata as an empty string.
        metadata: metadata ?? "",
      },
      now(),
    );
    if (!transaction) {
      return c.json(
        {
          status: false,
          message: "Duplicate Transaction Reference",
          meta: { nextStep: "Try and create the Transaction or Charge with a new reference" },
          type: "validation_error",
          code: "duplicate_reference",
        },
        400,
      );
    }
    return c.json({
      status: true,
      message: "Authorization URL created",
      data: {
        authorization_url: `${publicUrl}/checkout/${transaction.accessCode}`,
        access_code: transaction.accessCode,
        reference: transaction.reference,
      },
    });
  });

  app.get("/transaction/verify/:reference", requireSecretKey, async (c) => {
    const transaction = await store.findByReference(c.req.param("reference"));
    if (!transaction) {
      return c.json({ status: false, message: "Transaction reference not found" }, 404);
    }
    return c.json({
      status: true,
      message: "Verification successful",
      data: toVerifyData(transaction),
    });
  });

  app.get("/checkout/:accessCode", async (c) => {
    const transaction = await store.findByAccessCode(c.req.param("accessCode"));
    c.header("Cache-Control", "no-store");
    if (!transaction) return c.html(renderCheckoutNotFound(), 404);
    return c.html(renderCheckoutPage(transaction));
  });

  // Each answers the transaction as it is afterwards.
  const outcomes: Record<string, (transaction: SandboxTransaction) => Promise<SandboxTransaction>> =
    {
      async pay(transaction) {
        const paid = await store.markPaid(transaction, now());
        // Fire and forget, like Paystack: the browser's redirect does not wait for the webhook.
        if (paid) void sendChargeSuccess(paid);
        return paid ?? transaction;
      },
      decline: (transaction) => store.markDeclined(transaction),
      abandon: async (transaction) => transaction,
    };

  app.post("/checkout/:accessCode/:outcome{pay|decline|abandon}", async (c) => {
    const transaction = await store.findByAccessCode(c.req.param("accessCode"));
    if (!transaction) return c.html(renderCheckoutNotFound(), 404);
    return returnToMerchant(c, await outcomes[c.req.param("outcome")]!(transaction));
  });

  app.post("/__sandbox/transactions/:reference/pay", requireSecretKey, async (c) => {
    const transaction = await store.findByReference(c.req.param("reference"));
    if (!transaction) {
      return c.json({ status: false, message: "Transaction reference not found" }, 404);
    }
    // `?webhook=none`: paid, but the webhook is lost on the way (the reconciliation's journeys).
    const lost = c.req.query("webhook") === "none";
    const paid = await store.markPaid(transaction, now());
    const webhook = paid && !lost ? await sendChargeSuccess(paid) : "not sent";
    const status = paid
      ? paid.status
      : (await store.findByReference(transaction.reference))!.status;
    return c.json({
      status: true,
      message: "Transaction marked as paid",
      data: { reference: transaction.reference, status, webhook },
    });
  });

  // A charge taken back after paying (a chargeback or a reversal), for the reconciliation's tests.
  app.post("/__sandbox/transactions/:reference/reverse", requireSecretKey, async (c) => {
    const reference = c.req.param("reference");
    if (!(await store.markReversed(reference))) {
      return c.json(
        { status: false, message: "No successful transaction with that reference" },
        404,
      );
    }
    return c.json({ status: true, message: "Transaction reversed", data: { reference } });
  });

  addTransactionList(app, store, requireSecretKey);
  addRefunds(app, {
    store,
    requireSecretKey,
    sendEvent,
    now,
    settleAfterMs: options.settleRefundsAfterMs,
  });

  app.notFound((c) => c.json({ status: false, message: "Not found" }, 404));
  app.onError((error, c) => {
    console.error("Paystack sandbox failed:", error);
    return c.json(
      { status: false, message: "The Paystack sandbox failed; see the server log" },
      500,
    );
  });

  return app;
}

/** 303 to callback_url with `trxref` and `reference` added, keeping its own query string. */
function returnToMerchant(c: Context, transaction: SandboxTransaction) {
  if (!transaction.callbackUrl) return c.html(renderCheckoutDone(transaction));
  const url = new URL(transaction.callbackUrl);
  url.searchParams.set("trxref", transaction.reference);
  url.searchParams.set("reference", transaction.reference);
  return c.redirect(url.toString(), 303);
}
