import type { Hono, MiddlewareHandler } from "hono";
import { z } from "zod";
import type { SandboxRefund, SandboxStore } from "./sandbox-store.ts";

type SendEvent = (event: string, data: unknown, reference: string) => Promise<unknown>;

// RefundCreate: `transaction` is the reference (or id) of a successful transaction.
const RefundRequest = z.object({
  transaction: z.union([z.string().min(1).max(100), z.number().int().positive()]).transform(String),
  amount: z.number().int().positive().optional(),
  currency: z.enum(["GHS", "KES", "NGN", "USD", "ZAR"]).optional(),
  customer_note: z.string().max(1000).optional(),
  merchant_note: z.string().max(1000).optional(),
});

const INTEGRATION = 100_032;

// A date the database can hold as a timestamp (years 1 to 9999).
const instant = z.string().refine((value) => {
  const year = new Date(value).getUTCFullYear();
  return year >= 1 && year <= 9999;
}, "not a date");

// RefundList's query: perPage, page, from and to (creation time).
const ListQuery = z.object({
  perPage: z.coerce.number().int().min(1).max(1000).default(50),
  page: z.coerce.number().int().min(1).default(1),
  from: instant.optional(),
  to: instant.optional(),
});

/**
 * `POST /refund` as Paystack answers it: the refund starts `pending`; Paystack later sends
 * `refund.processed` or `refund.failed`. Here that happens after `settleAfterMs` when set (the
 * running sandbox), or when a test calls `POST /__sandbox/refunds/:id/process|fail`. A refund
 * of the whole amount leaves the transaction `reversed`, as Paystack reports it. Refunds live in
 * the database: a sandbox that starts settles those a stopped one left pending.
 */
export function addRefunds(
  app: Hono,
  options: {
    store: SandboxStore;
    requireSecretKey: MiddlewareHandler;
    sendEvent: SendEvent;
    now: () => Date;
    settleAfterMs?: number;
  },
) {
  const { store, requireSecretKey, sendEvent, now } = options;
  const refuse = (message: string, httpStatus: 400 | 404 = 400) =>
    ({ body: { status: false, message, type: "validation_error" }, httpStatus }) as const;

  async function check(request: z.infer<typeof RefundRequest>) {
    const transaction =
      (await store.findByReference(request.transaction)) ??
      (await store.findById(request.transaction));
    if (!transaction) return refuse("Transaction not found", 404);
    if (transaction.status === "reversed") return refuse("Transaction has been fully reversed");
    if (transaction.status !== "success")
      return refuse("Cannot refund a transaction that was not successful");
    if (request.currency && request.currency !== transaction.currency)
      return refuse("Currency does not match the transaction's");
    const left = transaction.amountKobo - transaction.refundedKobo;
    const amountKobo = request.amount ?? left;
    if (amountKobo > left)
      return refuse("Refund amount cannot be more than the amount left on the transaction");
    return { transaction, amountKobo };
  }

  /** Settles a pending refund and sends its webhook; undefined (and no webhook) when it was settled already. */
  async function settle(id: number, outcome: "processed" | "failed") {
    const refund = await store.settleRefund(id, outcome);
    if (refund)
      await sendEvent(`refund.${outcome}`, refundEvent(refund), refund.transaction.reference);
    return refund;
  }

  const { settleAfterMs } = options;
  const settleLater = (id: number, delayMs: number) =>
    setTimeout(
      () => void settle(id, "processed").catch(warnUnsettled(id)),
      Math.max(0, delayMs),
    ).unref();
  if (settleAfterMs !== undefined) {
    // Refunds a stopped sandbox meant to settle: every instance may try; one settles each.
    void store
      .pendingRefunds()
      .then((pending) => {
        for (const refund of pending)
          settleLater(refund.id, refund.createdAt.getTime() + settleAfterMs - now().getTime());
      })
      .catch((error: unknown) =>
        console.warn(`Paystack sandbox: could not read pending refunds: ${String(error)}`),
      );
  }

  app.post("/refund", requireSecretKey, async (c) => {
    const parsed = RefundRequest.safeParse(await c.req.json().catch(() => undefined));
    if (!parsed.success) {
      const field = String(parsed.error.issues[0]?.path[0] ?? "body");
      return c.json({ status: false, message: `Invalid ${field}`, type: "validation_error" }, 400);
    }
    const checked = await check(parsed.data);
    if ("body" in checked) return c.json(checked.body, checked.httpStatus);
    // Held at once, so a second request (to any instance) cannot refund the same money twice.
    const refund = await store.createRefund(checked.transaction, {
      amountKobo: checked.amountKobo,
      merchantNote: parsed.data.merchant_note ?? "",
      customerNote: parsed.data.customer_note ?? "",
      createdAt: now(),
    });
    if (!refund) {
      const { body, httpStatus } = refuse(
        "Refund amount cannot be more than the amount left on the transaction",
      );
      return c.json(body, httpStatus);
    }
    if (settleAfterMs !== undefined) settleLater(refund.id, settleAfterMs);
    return c.json({
      status: true,
      message: "Refund has been queued for processing",
      data: refundData(refund),
    });
  });

  // List Refunds, newest first: how a client finds a refund whose create answer it never got.
  app.get("/refund", requireSecretKey, async (c) => {
    const query = ListQuery.safeParse(c.req.query());
    if (!query.success) {
      const field = String(query.error.issues[0]?.path[0] ?? "query");
      return c.json({ status: false, message: `Invalid ${field}`, type: "validation_error" }, 400);
    }
    const { perPage, page, from, to } = query.data;
    const skipped = (page - 1) * perPage;
    const listed = await store.listRefunds({
      from: from ? new Date(from) : undefined,
      to: to ? new Date(to) : undefined,
      offset: skipped,
      limit: perPage,
    });
    return c.json({
      status: true,
      message: "Refunds retrieved",
      data: listed.refunds.map(refundListItem),
      meta: {
        total: listed.total,
        skipped,
        perPage: String(perPage),
        page,
        pageCount: Math.max(1, Math.ceil(listed.total / perPage)),
        failedRefundCount: listed.failed,
      },
    });
  });

  app.post("/__sandbox/refunds/:id/:outcome{process|fail}", requireSecretKey, async (c) => {
    const refund = await store.findRefund(c.req.param("id"));
    if (!refund) return c.json({ status: false, message: "Refund not found" }, 404);
    const settled = await settle(
      refund.id,
      c.req.param("outcome") === "process" ? "processed" : "failed",
    );
    return c.json({
      status: true,
      message: settled ? "Refund settled" : "Refund was already settled",
      data: {
        id: refund.id,
        status: (settled ?? (await store.findRefund(c.req.param("id")))!).status,
      },
    });
  });
}

function warnUnsettled(id: number) {
  return (error: unknown) =>
    console.warn(`Paystack sandbox: refund ${id} could not be settled: ${String(error)}`);
}

/** The `data` of `POST /refund`'s answer (RefundCreateResponse). */
function refundData(refund: SandboxRefund) {
  const { transaction } = refund;
  const createdAt = refund.createdAt.toISOString();
  const paidAt = transaction.paidAt?.toISOString() ?? createdAt;
  return {
    transaction: {
      id: transaction.id,
      domain: "test",
      reference: transaction.reference,
      amount: transaction.amountKobo,
      paid_at: paidAt,
      channel: "card",
      currency: transaction.currency,
      authorization: { exp_month: "12", exp_year: "2030", account_name: null },
      customer: { international_format_phone: null },
      plan: {},
      subaccount: { currency: null },
      split: {},
      order_id: null,
      paidAt,
      pos_transaction_data: null,
      source: null,
      fees_breakdown: null,
    },
    integration: INTEGRATION,
    deducted_amount: 0,
    channel: null,
    merchant_note: refund.merchantNote,
    customer_note: refund.customerNote,
    status: "pending",
    refunded_by: "sandbox@paystack.test",
    expected_at: new Date(refund.createdAt.getTime() + 24 * 3_600_000).toISOString(),
    currency: transaction.currency,
    domain: "test",
    amount: refund.amountKobo,
    fully_deducted: false,
    id: refund.id,
    createdAt,
    updatedAt: createdAt,
  };
}

/** One refund as `GET /refund` lists it (RefundListResponseArray). */
function refundListItem(refund: SandboxRefund) {
  const { transaction } = refund;
  return {
    integration: INTEGRATION,
    transaction: transaction.id,
    dispute: null,
    settlement: null,
    id: refund.id,
    domain: "test",
    currency: transaction.currency,
    amount: refund.amountKobo,
    status: refund.status,
    refunded_at: null,
    refunded_by: "sandbox@paystack.test",
    customer_note: refund.customerNote,
    merchant_note: refund.merchantNote,
    deducted_amount: 0,
    fully_deducted: 0,
    createdAt: refund.createdAt.toISOString(),
    bank_reference: null,
    transaction_reference: transaction.reference,
    reason: refund.merchantNote,
    customer: {
      id: transaction.customer.id,
      first_name: "",
      last_name: "",
      email: transaction.email,
      customer_code: transaction.customer.code,
      phone: null,
      metadata: "",
      risk_action: "default",
      international_format_phone: "",
    },
    refund_type: refund.amountKobo === transaction.amountKobo ? "full" : "partial",
    transaction_amount: transaction.amountKobo,
    initiated_by: "merchant",
    refund_channel: transaction.channel,
    session_id: null,
    collect_account_number: false,
  };
}

/** The `data` of `refund.processed` and `refund.failed` webhooks. */
function refundEvent(refund: SandboxRefund) {
  return {
    id: refund.id,
    status: refund.status,
    transaction_reference: refund.transaction.reference,
    refund_reference: `RFD_${refund.id}`,
    amount: refund.amountKobo,
    currency: refund.transaction.currency,
    processor: "sandbox",
    customer: { first_name: null, last_name: null, email: refund.transaction.email },
    integration: INTEGRATION,
    domain: "test",
  };
}
