import type { Hono, MiddlewareHandler } from "hono";
import { z } from "zod";
import { toVerifyData, type SandboxStore, type SandboxTransaction } from "./sandbox-store.ts";

// A date the database can hold as a timestamp (years 1 to 9999).
const instant = z.string().refine((value) => {
  const year = new Date(value).getUTCFullYear();
  return year >= 1 && year <= 9999;
}, "not a date");

// The query of GET /transaction, limited to the filters the bursary's reconciliation uses.
const ListQuery = z.object({
  perPage: z.coerce.number().int().min(1).max(1000).optional(),
  per_page: z.coerce.number().int().min(1).max(1000).optional(),
  page: z.coerce.number().int().min(1).default(1),
  from: instant.optional(),
  to: instant.optional(),
  status: z.enum(["success", "failed", "abandoned", "reversed"]).optional(),
});

const NO_CARD = {
  authorization_code: null,
  bin: null,
  last4: null,
  exp_month: null,
  exp_year: null,
  channel: null,
  card_type: null,
  bank: null,
  country_code: null,
  brand: null,
  reusable: false,
  signature: null,
  account_name: null,
};

/** One transaction as `GET /transaction` lists it: the verify shape with the list's own nulls. */
export function toListItem(transaction: SandboxTransaction) {
  const data = toVerifyData(transaction);
  return {
    ...data,
    // The list types metadata as an object or null, where verify also gives "" for none.
    metadata: typeof data.metadata === "string" ? null : data.metadata,
    authorization: transaction.authorizationCode ? data.authorization : NO_CARD,
    // Verify types plan as a string or null; the list as an object.
    plan: {},
    // The spec types paidAt as a string even before payment; the creation time stands in then.
    paidAt: data.paidAt ?? data.createdAt,
  };
}

/**
 * `GET /transaction`: newest first, filtered by creation time (`from`/`to`, inclusive) and
 * status, paged by `page` and `perPage` (default 50) with Paystack's `meta`.
 */
export function addTransactionList(
  app: Hono,
  store: SandboxStore,
  requireSecretKey: MiddlewareHandler,
) {
  app.get("/transaction", requireSecretKey, async (c) => {
    const query = ListQuery.safeParse(c.req.query());
    if (!query.success) {
      const field = String(query.error.issues[0]?.path[0] ?? "query");
      return c.json({ status: false, message: `Invalid ${field}`, type: "validation_error" }, 400);
    }
    const { page, from, to, status } = query.data;
    const perPage = query.data.perPage ?? query.data.per_page ?? 50;
    const skipped = (page - 1) * perPage;
    const { transactions, total, volumeKobo } = await store.list({
      from: from ? new Date(from) : undefined,
      to: to ? new Date(to) : undefined,
      status,
      offset: skipped,
      limit: perPage,
    });
    return c.json({
      status: true,
      message: "Transactions retrieved",
      data: transactions.map(toListItem),
      meta: {
        total,
        total_volume: volumeKobo,
        skipped,
        perPage,
        page,
        pageCount: Math.max(1, Math.ceil(total / perPage)),
      },
    });
  });
}
