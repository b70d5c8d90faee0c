import { setTimeout as sleep } from "node:timers/promises";
import { Hono, type Context, type MiddlewareHandler } from "hono";
import { z } from "zod";
import type { Database } from "../db/client.ts";
import { koboToNairaNumber, nairaTextToKobo } from "./amount.ts";
import {
  finalizeHash,
  paymentInitHash,
  readRemitaAuthorization,
  sameHash,
  statusHash,
} from "./hash.ts";
import { REMITA_PATHS } from "./contract-schemas.ts";
import { writeRemitaTime } from "./responses.ts";
import type { SandboxLineItem } from "./sandbox-schema.ts";
import {
  createRemitaSandboxStore,
  type SandboxChannel,
  type SandboxInvoice,
} from "./sandbox-store.ts";
import {
  renderBankDone,
  renderBankPage,
  renderFinalizePage,
  renderNowhereToReturn,
  renderRefused,
  renderUnknownRrr,
} from "./sandbox-pages.ts";

const NOTIFICATION_TIMEOUT_MS = 5_000;
/** How long a "time-out" fault holds an answer back: well past any client's patience. */
const DEFAULT_HANG_MS = 60_000;

/** What became of a notification the sandbox sent. */
export type NotificationDelivery = "delivered" | "failed" | "not sent";

/**
 * Where the sandbox sends its notifications: the API's Remita webhook at the portal's public
 * origin, the one URL a merchant sets on its Remita profile.
 */
export function remitaNotificationUrl(publicOrigin: string): string {
  return new URL("/api/remita/webhook", publicOrigin).toString();
}

/**
 * A local stand-in for Remita's invoice API, for development and tests without a Remita account,
 * at Remita's own paths so that only REMITA_BASE_URL changes (decision 188):
 * - `POST …/echannelsvc/merchant/api/paymentinit` checks the Authorization header and its hash,
 *   Remita's split rules, and answers `jsonp ({…})` with 025 and a new 12-digit RRR, or 028 for
 *   an order id it has seen;
 * - `GET …/{merchantId}/{rrr}/{hash}/status.reg` and `…/{orderId}/{hash}/orderstatus.reg`, under
 *   the echannel and the legacy /remita/ecomm prefixes, answer plain JSON;
 * - `POST …/echannelsvc/v2/api/deactivate.json` cancels an unpaid RRR;
 * - `POST /remita/ecomm/finalize.reg` (the form from the payer's browser) shows a page to pay,
 *   decline or abandon, then sends the browser to `responseurl?RRR=…&orderID=…`;
 * - `GET /simulate/bank/:rrr` pays an RRR as at a bank's counter, now or after a delay.
 * A paid invoice is notified as Remita does: an unsigned JSON array POSTed to `notificationUrl`.
 * Test hooks (`Authorization: Bearer <apiKey>`): `POST /__sandbox/rrr/:rrr/pay` (body
 * `{channel?, notify?, delayMs?}`), `GET /__sandbox/rrr/:rrr`, and `POST /__sandbox/faults`
 * (`{errorShare, timeoutShare}`: that share of API calls answers 503 before doing anything, or
 * does it and holds the answer back past a client's time-out).
 * State is in the database (sandbox-schema.ts): a bank payment due later arrives even if the
 * sandbox restarted meanwhile, at the first request after it is due or on the `settleEveryMs` timer.
 */
export function createRemitaSandbox(options: {
  db: Database;
  /** The merchant it knows the portal as, and the key that proves the portal's hashes. */
  merchantId: string;
  apiKey: string;
  /** The service types the merchant has; unset: any. */
  serviceTypeIds?: string[];
  /** Where Remita's notifications go (remitaNotificationUrl). */
  notificationUrl: string;
  /** Sends the notifications. */
  fetch?: typeof fetch;
  now?: () => Date;
  /** For the fault switches; Math.random unless a test decides. */
  random?: () => number;
  /** How long a time-out fault holds an answer (default 60 s; it ends early if the caller leaves). */
  hangMs?: number;
  /** Check for due bank payments this often as well as on each request; unset: on requests only. */
  settleEveryMs?: number;
  /** Stops that timer (before the database closes). */
  signal?: AbortSignal;
}): Hono {
  const { merchantId, apiKey, notificationUrl } = options;
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const now = options.now ?? (() => new Date());
  const random = options.random ?? Math.random;
  const hangMs = options.hangMs ?? DEFAULT_HANG_MS;
  const store = createRemitaSandboxStore(options.db);
  const knownServiceType = (id: string) =>
    !options.serviceTypeIds || options.serviceTypeIds.includes(id);
  const app = new Hono();

  /** Never rejects: a portal that is down must not break a payment. */
  async function notify(invoice: SandboxInvoice): Promise<NotificationDelivery> {
    const body = JSON.stringify([notificationOf(invoice)]);
    try {
      const response = await fetchImpl(notificationUrl, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body,
        signal: AbortSignal.timeout(NOTIFICATION_TIMEOUT_MS),
      });
      if (response.ok) return "delivered";
      console.warn(
        `Remita sandbox: the notification for RRR ${invoice.rrr} got HTTP ${response.status} from ${notificationUrl}`,
      );
    } catch (error) {
      console.warn(
        `Remita sandbox: the notification for RRR ${invoice.rrr} could not reach ${notificationUrl}: ${String(error)}`,
      );
    }
    return "failed";
  }

  /** Bank payments due by now arrive; each is notified by whichever instance paid it. */
  async function settleArrivals(): Promise<void> {
    const arrived = await store.settleArrivals(now());
    await Promise.all(arrived.filter((invoice) => invoice.arrivalNotifies !== false).map(notify));
  }

  if (options.settleEveryMs !== undefined && !options.signal?.aborted) {
    let settling = false;
    const timer = setInterval(() => {
      // One check at a time: a slow database must not pile them up.
      if (settling) return;
      settling = true;
      settleArrivals()
        .catch((error: unknown) =>
          console.error("Remita sandbox: settling bank payments failed:", error),
        )
        .finally(() => (settling = false));
    }, options.settleEveryMs).unref();
    options.signal?.addEventListener("abort", () => clearInterval(timer), { once: true });
  }

  app.use(async (_c, next) => {
    await settleArrivals();
    await next();
  });

  /** The fault switches, for Remita's API calls (not the pages or the test hooks). */
  const faults: MiddlewareHandler = async (c, next) => {
    const { errorShare, timeoutShare } = await store.faults();
    if (errorShare + timeoutShare === 0) return next();
    const draw = random();
    if (draw < errorShare) return c.text("Service Unavailable", 503);
    await next();
    if (draw < errorShare + timeoutShare)
      await sleep(hangMs, undefined, { signal: c.req.raw.signal }).catch(() => undefined);
  };

  const requireKey: MiddlewareHandler = async (c, next) => {
    if (c.req.header("authorization") !== `Bearer ${apiKey}`)
      return c.json({ status: "error", message: "Send Authorization: Bearer <the API key>" }, 401);
    await next();
  };

  app.post(REMITA_PATHS.paymentInit, faults, async (c) => {
    const answer = (statuscode: string, status: string, rrr = "") =>
      jsonp(c, { statuscode, RRR: rrr, status });
    const authorization = readRemitaAuthorization(c.req.header("authorization"));
    if (!authorization) return answer("020", "Invalid User Authentication");
    const parsed = PaymentInitBody.safeParse(await c.req.json().catch(() => undefined));
    if (!parsed.success) return answer("022", `Invalid Request: ${fieldOf(parsed.error)}`);
    const body = parsed.data;
    if (authorization.merchantId !== merchantId || !knownServiceType(body.serviceTypeId))
      return answer("023", "Service type or Merchant Does not Exist");
    const expected = paymentInitHash({
      merchantId,
      serviceTypeId: body.serviceTypeId,
      orderId: body.orderId,
      amount: body.amount,
      apiKey,
    });
    if (!sameHash(authorization.token, expected))
      return answer("013", "hash of the parameters does not match");
    const amountKobo = nairaTextToKobo(body.amount);
    if (amountKobo === null || amountKobo === 0) return answer("022", "Invalid Request: amount");
    const split = readLineItems(body.lineItems, amountKobo);
    if ("code" in split) return answer(split.code, split.status);
    const invoice = await store.create(
      {
        merchantId,
        serviceTypeId: body.serviceTypeId,
        orderId: body.orderId,
        amountKobo,
        payerName: body.payerName,
        payerEmail: body.payerEmail,
        payerPhone: body.payerPhone ?? "",
        description: body.description,
        lineItems: split.items,
        customFields: body.customFields?.map(({ name, value }) => ({ name, value })) ?? null,
      },
      now(),
    );
    if (invoice === "duplicate") return answer("028", "Duplicate Order Ref");
    return answer("025", "Payment Reference generated", invoice.rrr);
  });

  for (const prefix of [REMITA_PATHS.echannel, REMITA_PATHS.legacy]) {
    app.get(`${prefix}/:merchantId/:key/:hash/:call{status\\.reg|orderstatus\\.reg}`, faults, (c) =>
      answerStatus(c),
    );
  }

  async function answerStatus(c: Context) {
    const { merchantId: given, key, hash, call } = c.req.param() as Record<string, string>;
    const byOrder = call === "orderstatus.reg";
    const nothing = (status: string, message: string) =>
      c.json({ amount: 0, RRR: "", orderId: "", message, transactiontime: "", status });
    // The header is optional on the legacy path (Python SDK, SystemSpecs' samples); when sent,
    // it must say what the path says.
    const header = c.req.header("authorization");
    if (header !== undefined) {
      const authorization = readRemitaAuthorization(header);
      if (!authorization || authorization.merchantId !== given || authorization.token !== hash)
        return nothing("020", "Invalid User Authentication");
    }
    if (given !== merchantId) return nothing("023", "Invalid Merchant or OrderId");
    if (!sameHash(hash, statusHash({ key, apiKey, merchantId })))
      return nothing("013", "hash of the parameters does not match");
    const invoice = byOrder ? await store.findByOrder(merchantId, key) : await store.findByRrr(key);
    if (!invoice || invoice.merchantId !== merchantId) {
      return byOrder
        ? nothing("023", "Invalid Merchant or OrderId")
        : nothing("022", "Invalid RRR");
    }
    return c.json(statusOf(invoice));
  }

  app.post(REMITA_PATHS.deactivate, faults, async (c) => {
    const body = DeactivateBody.safeParse(await c.req.json().catch(() => undefined));
    if (!body.success) return c.json({ statuscode: "022", status: "Invalid Request" });
    const { rrr, hash } = body.data;
    if (body.data.merchantId !== merchantId)
      return c.json({ statuscode: "023", status: "Invalid Merchant" });
    if (!sameHash(hash, statusHash({ key: rrr, apiKey, merchantId })))
      return c.json({ statuscode: "013", status: "hash of the parameters does not match" });
    const invoice = await store.findByRrr(rrr);
    if (!invoice) return c.json({ statuscode: "022", status: "Invalid RRR" });
    if ((await store.cancel(invoice.id)) === "paid")
      return c.json({ statuscode: "027", status: "Transaction Already Processed" });
    return c.json({ statuscode: "00", status: "Successful" });
  });

  app.post(REMITA_PATHS.finalize, async (c) => {
    c.header("Cache-Control", "no-store");
    const form = FinalizeFields.safeParse(await c.req.parseBody().catch(() => undefined));
    if (!form.success)
      return c.html(renderRefused("Send merchantId, hash, rrr and an http(s) responseurl."), 400);
    const { rrr, hash, responseurl } = form.data;
    const invoice = await store.findByRrr(rrr);
    if (form.data.merchantId !== merchantId || !invoice || invoice.merchantId !== merchantId)
      return c.html(renderRefused("Remita has no such RRR for this merchant."), 404);
    if (!sameHash(hash, finalizeHash({ merchantId, rrr, apiKey })))
      return c.html(
        renderRefused("The hash does not match: the form was not made with this merchant's key."),
        400,
      );
    await store.setResponseUrl(invoice.id, responseurl);
    return c.html(renderFinalizePage(invoice));
  });

  app.post("/remita/ecomm/finalize/:rrr/:outcome{pay|decline|abandon}", async (c) => {
    const invoice = await store.findByRrr(c.req.param("rrr"));
    if (!invoice) return c.html(renderUnknownRrr(), 404);
    const outcome = c.req.param("outcome");
    if (outcome === "pay") {
      const paid = await store.markPaid(invoice.id, "CARDPAYMENT", now());
      // Remita's notification is its own, not the browser's: sent before the browser returns, so
      // a test sees it, but whatever becomes of it the browser goes back.
      if (paid) await notify(paid);
    } else if (outcome === "decline") {
      await store.markDeclined(invoice.id);
    }
    const after = (await store.findByRrr(invoice.rrr))!;
    if (!after.responseUrl) return c.html(renderNowhereToReturn(after));
    const back = new URL(after.responseUrl);
    back.searchParams.set("RRR", after.rrr);
    back.searchParams.set("orderID", after.orderId);
    return c.redirect(back.toString(), 303);
  });

  app.get("/simulate/bank/:rrr", async (c) => {
    c.header("Cache-Control", "no-store");
    const invoice = await store.findByRrr(c.req.param("rrr"));
    if (!invoice) return c.html(renderUnknownRrr(), 404);
    return c.html(renderBankPage(invoice));
  });

  app.post("/simulate/bank/:rrr", async (c) => {
    const form = BankForm.safeParse(await c.req.parseBody().catch(() => undefined));
    const invoice = await store.findByRrr(c.req.param("rrr"));
    if (!invoice) return c.html(renderUnknownRrr(), 404);
    if (!form.success) return c.html(renderBankPage(invoice), 400);
    const result = await payLater(invoice, {
      channel: "BRANCH",
      notify: form.data.notify === "1",
      delayMs: form.data.minutes * 60_000,
    });
    const after = (await store.findByRrr(invoice.rrr))!;
    return c.html(renderBankDone(after, NOTIFICATION_TEXT[result.notification]));
  });

  /** Pays an invoice now, or schedules its arrival; what became of it and its notification. */
  async function payLater(
    invoice: SandboxInvoice,
    how: { channel: SandboxChannel; notify: boolean; delayMs: number },
  ): Promise<{
    state: "paid" | "scheduled" | "not payable";
    notification: NotificationDelivery;
    arrivesAt?: string;
  }> {
    if (how.delayMs > 0) {
      const at = new Date(now().getTime() + how.delayMs);
      const scheduled = await store.scheduleArrival(invoice.id, {
        at,
        channel: how.channel,
        notifies: how.notify,
      });
      return scheduled
        ? { state: "scheduled", notification: "not sent", arrivesAt: at.toISOString() }
        : { state: "not payable", notification: "not sent" };
    }
    const paid = await store.markPaid(invoice.id, how.channel, now());
    if (!paid) return { state: "not payable", notification: "not sent" };
    return { state: "paid", notification: how.notify ? await notify(paid) : "not sent" };
  }

  app.post("/__sandbox/rrr/:rrr/pay", requireKey, async (c) => {
    const body = PayHook.safeParse(await c.req.json().catch(() => ({})));
    if (!body.success)
      return c.json({ status: "error", message: `Invalid ${fieldOf(body.error)}` }, 400);
    const invoice = await store.findByRrr(c.req.param("rrr"));
    if (!invoice) return c.json({ status: "error", message: "Invalid RRR" }, 404);
    const result = await payLater(invoice, body.data);
    return c.json({ status: "ok", rrr: invoice.rrr, ...result });
  });

  app.get("/__sandbox/rrr/:rrr", requireKey, async (c) => {
    const invoice = await store.findByRrr(c.req.param("rrr"));
    if (!invoice) return c.json({ status: "error", message: "Invalid RRR" }, 404);
    return c.json({ status: "ok", invoice });
  });

  app.post("/__sandbox/faults", requireKey, async (c) => {
    const body = FaultsBody.safeParse(await c.req.json().catch(() => undefined));
    if (!body.success)
      return c.json(
        {
          status: "error",
          message: "Send errorShare and timeoutShare between 0 and 1, adding up to 1 at most.",
        },
        400,
      );
    await store.setFaults(body.data);
    return c.json({ status: "ok", faults: body.data });
  });

  app.notFound((c) => c.json({ status: "error", message: "Not found" }, 404));
  app.onError((error, c) => {
    console.error("Remita sandbox failed:", error);
    return c.json(
      { status: "error", message: "The Remita sandbox failed; see the server log" },
      500,
    );
  });

  return app;
}

/** Remita's JSONP answer: `jsonp (` + JSON + `)`, exactly as its SDKs strip it. */
function jsonp(c: Context, body: unknown) {
  c.header("Content-Type", "text/javascript; charset=utf-8");
  return c.body(`jsonp (${JSON.stringify(body)})`);
}

/** status.reg / orderstatus.reg for a known invoice. */
export function statusOf(invoice: SandboxInvoice) {
  const [code, message] = statusWords(invoice);
  // Remita gives the invoice's day at midnight, West Africa Time.
  const wat = new Date(invoice.createdAt.getTime() + HOUR_MS);
  const midnight = new Date(
    Date.UTC(wat.getUTCFullYear(), wat.getUTCMonth(), wat.getUTCDate()) - HOUR_MS,
  );
  return {
    amount: koboToNairaNumber(invoice.amountKobo),
    RRR: invoice.rrr,
    orderId: invoice.orderId,
    message,
    ...(invoice.status === "paid" && invoice.paidAt
      ? { paymentDate: writeRemitaTime(invoice.paidAt) }
      : {}),
    transactiontime: writeRemitaTime(midnight),
    status: code,
  };
}

const HOUR_MS = 3_600_000;

function statusWords(invoice: SandboxInvoice): [string, string] {
  switch (invoice.status) {
    case "paid":
      // A card on Remita's page completes (00); a bank's counter is approved (01): both are paid.
      return invoice.channel === "BRANCH"
        ? ["01", "Approved"]
        : ["00", "Transaction Completed Successfully"];
    case "failed":
      return ["02", "Transaction Failed"];
    case "cancelled":
      // No source says what a deactivated RRR answers; the sandbox calls it failed.
      return ["02", "Transaction Failed: the RRR was deactivated"];
    case "pending":
      return ["021", "Transaction Pending"];
  }
}

/** One element of Remita's notification array for a paid invoice. */
export function notificationOf(invoice: SandboxInvoice) {
  const paidAt = invoice.paidAt ?? invoice.createdAt;
  const wat = new Date(paidAt.getTime() + HOUR_MS).toISOString();
  const branch = invoice.channel === "BRANCH";
  return {
    rrr: invoice.rrr,
    channel: invoice.channel ?? "CARDPAYMENT",
    amount: koboToNairaNumber(invoice.amountKobo),
    transactiondate: `${wat.slice(0, 10)} 00:00:00`,
    debitdate: `${wat.slice(0, 10)} ${wat.slice(11, 19)}`,
    bank: branch ? "011" : "",
    branch: branch ? "Sandbox branch" : "",
    serviceTypeId: invoice.serviceTypeId,
    orderRef: invoice.orderId,
    orderId: invoice.orderId,
    payerName: invoice.payerName,
    payerPhoneNumber: invoice.payerPhone,
    payerEmail: invoice.payerEmail,
    type: "PY",
    paymentDescription: invoice.description,
    billerName: "Remita sandbox merchant",
    customFieldData: (invoice.customFields ?? []).map((field) => ({
      DESCRIPTION: field.name,
      COLVAL: field.value,
    })),
  };
}

const NOTIFICATION_TEXT: Record<NotificationDelivery, string> = {
  delivered: "Remita's notification was delivered to the portal.",
  failed: "The portal did not accept Remita's notification; see the server log.",
  "not sent": "No notification was sent.",
};

// Remita's SDKs send every value as a string; a number is taken as its text, as Remita's own
// JSON reading would, and hashed as that text.
const Text = z.union([z.string(), z.number()]).transform(String);

const PaymentInitBody = z.object({
  serviceTypeId: Text.pipe(z.string().regex(/^\d+$/)),
  amount: Text.pipe(z.string().regex(/^\d+(\.\d{1,2})?$/)),
  orderId: Text.pipe(z.string().min(1).max(100)),
  payerName: Text.pipe(z.string().min(1).max(200)),
  payerEmail: Text.pipe(z.email()),
  payerPhone: Text.optional(),
  description: Text.pipe(z.string().min(1).max(500)),
  customFields: z
    .array(z.object({ name: Text, value: Text, type: Text.optional() }))
    .max(20)
    .optional(),
  lineItems: z
    .array(
      z.object({
        lineItemsId: Text.pipe(z.string().min(1)),
        beneficiaryName: Text.pipe(z.string().min(1)),
        beneficiaryAccount: Text,
        bankCode: Text,
        beneficiaryAmount: Text,
        deductFeeFrom: Text,
      }),
    )
    .max(20)
    .optional(),
});

/** Remita's split rules and its codes for them ([RJS] statusCodes). */
function readLineItems(
  given: z.infer<typeof PaymentInitBody>["lineItems"],
  amountKobo: number,
): { items: SandboxLineItem[] | null } | { code: string; status: string } {
  if (!given?.length) return { items: null };
  const items: SandboxLineItem[] = [];
  for (const item of given) {
    const share = nairaTextToKobo(item.beneficiaryAmount);
    if (share === null) return { code: "022", status: "Invalid Request: beneficiaryAmount" };
    if (!/^\d{10}$/.test(item.beneficiaryAccount) || !/^\d{3}$/.test(item.bankCode))
      return { code: "057", status: "Invalid Beneficiary Account or Bank Code" };
    if (item.deductFeeFrom !== "0" && item.deductFeeFrom !== "1")
      return { code: "022", status: "Invalid Request: deductFeeFrom" };
    items.push({
      lineItemsId: item.lineItemsId,
      beneficiaryName: item.beneficiaryName,
      beneficiaryAccount: item.beneficiaryAccount,
      bankCode: item.bankCode,
      amountKobo: share,
      deductFeeFrom: item.deductFeeFrom,
    });
  }
  if (new Set(items.map((item) => item.lineItemsId)).size !== items.length)
    return { code: "037", status: "Duplicate Line Item Id" };
  if (items.reduce((sum, item) => sum + item.amountKobo, 0) !== amountKobo)
    return { code: "084", status: "Total Amount Does not Match with Line Items Amount" };
  const bearers = items.filter((item) => item.deductFeeFrom === "1").length;
  if (bearers > 1) return { code: "087", status: "More than one chargeFee set to true" };
  if (bearers === 0) return { code: "088", status: "ChargeFee not set" };
  return { items };
}

const DeactivateBody = z.object({ rrr: Text, merchantId: Text, hash: Text });

const FinalizeFields = z.object({
  merchantId: z.string(),
  hash: z.string(),
  rrr: z.string(),
  // http(s) only: the sandbox must not send a browser to a javascript: address.
  responseurl: z.url({ protocol: /^https?$/ }),
  paymenttype: z.string().optional(),
});

const BankForm = z.object({
  minutes: z.coerce.number().int().min(0).max(525_600),
  notify: z.string().optional(),
});

const PayHook = z.object({
  channel: z.enum(["CARDPAYMENT", "BRANCH"]).default("BRANCH"),
  notify: z.boolean().default(true),
  delayMs: z
    .number()
    .int()
    .min(0)
    .max(400 * 24 * 60 * 60_000)
    .default(0),
});

const FaultsBody = z
  .object({
    errorShare: z.number().min(0).max(1),
    timeoutShare: z.number().min(0).max(1),
  })
  .refine((faults) => faults.errorShare + faults.timeoutShare <= 1);

function fieldOf(error: z.ZodError): string {
  return String(error.issues[0]?.path[0] ?? "body");
}
