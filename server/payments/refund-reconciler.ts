import { and, asc, eq, inArray, isNull, lte } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { payments, refunds } from "../db/schema.ts";
import type { Logger } from "../http/logger.ts";
import type { PaystackClient, PaystackRefund } from "../paystack/client.ts";
import { settleRefund } from "./refunds.ts";

type Deps = { db: Database; logger: Logger; now: () => Date; paystack: PaystackClient };

export type RefundReconcileOptions = {
  /** A refund is looked for once it is this old: Paystack's webhook usually comes first. */
  minAgeMs?: number;
  /** Not in Paystack's complete list this long after it was asked: Paystack never had it. */
  giveUpAfterMs?: number;
  batchSize?: number;
};

const MINUTE = 60_000;
const DEFAULTS = { minAgeMs: 5 * MINUTE, giveUpAfterMs: 60 * MINUTE, batchSize: 25 };
// Paystack's clock and ours may differ a little; its refund is created after our row.
const CLOCK_MARGIN_MS = 5 * MINUTE;
const PER_PAGE = 100;
const MAX_PAGES = 50;

/**
 * Refunds whose answer from Paystack was lost stay pending without Paystack's id (decision 141).
 * This finds each in Paystack's `GET /refund` by its transaction, amount and currency: a refund
 * Paystack processed or failed is settled, one still under way takes its id (its webhook then
 * settles it), and one missing from the whole list an hour later never reached Paystack and is
 * settled failed, so the payment returns to the queue. Answers how many refunds it resolved.
 */
export async function reconcileUnconfirmedRefunds(
  deps: Deps,
  options: RefundReconcileOptions = {},
): Promise<number> {
  const { minAgeMs, giveUpAfterMs, batchSize } = { ...DEFAULTS, ...options };
  const now = deps.now();
  const due = await deps.db
    .select({ refund: refunds, reference: payments.reference })
    .from(refunds)
    .innerJoin(payments, eq(payments.id, refunds.paymentId))
    .where(
      and(
        eq(refunds.status, "pending"),
        isNull(refunds.paystackRefundId),
        lte(refunds.requestedAt, new Date(now.getTime() - minAgeMs)),
      ),
    )
    .orderBy(asc(refunds.requestedAt))
    .limit(batchSize);
  if (!due.length) return 0;

  const from = new Date(due[0]!.refund.requestedAt.getTime() - CLOCK_MARGIN_MS);
  let listed: { refunds: PaystackRefund[]; complete: boolean };
  try {
    listed = await listSince(deps.paystack, from, new Date(now.getTime() + CLOCK_MARGIN_MS));
  } catch (error) {
    deps.logger.warn(
      "could not list Paystack's refunds; unconfirmed refunds wait for the next run",
      { error: String(error) },
    );
    return 0;
  }
  const ids = listed.refunds.map((refund) => refund.id);
  const taken = new Set(
    ids.length
      ? (
          await deps.db
            .select({ id: refunds.paystackRefundId })
            .from(refunds)
            .where(inArray(refunds.paystackRefundId, ids))
        ).map((row) => row.id)
      : [],
  );

  let resolved = 0;
  for (const { refund, reference } of due) {
    const facts = { reference, refundId: refund.id };
    const found = listed.refunds
      .filter(
        (theirs) =>
          !taken.has(theirs.id) &&
          theirs.transactionReference === reference &&
          theirs.amountKobo === refund.amountKobo &&
          theirs.currency === refund.currency,
      )
      .filter(
        (theirs) => theirs.createdAt.getTime() >= refund.requestedAt.getTime() - CLOCK_MARGIN_MS,
      )
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())[0];
    if (found) {
      taken.add(found.id);
      const detail = {
        paystack_refund_id: found.id,
        source: "reconcile",
        paystack_status: found.status,
      };
      if (found.status === "processed" || found.status === "failed") {
        await settleRefund(deps, refund.id, found.status, detail, found.id);
      } else {
        await deps.db
          .update(refunds)
          .set({ paystackRefundId: found.id })
          .where(and(eq(refunds.id, refund.id), isNull(refunds.paystackRefundId)));
      }
      deps.logger.info("found an unconfirmed refund at Paystack", {
        ...facts,
        paystackRefundId: found.id,
        status: found.status,
      });
      resolved += 1;
    } else if (listed.complete && now.getTime() - refund.requestedAt.getTime() > giveUpAfterMs) {
      await settleRefund(deps, refund.id, "failed", {
        source: "reconcile",
        note: "Paystack lists no such refund: it never reached Paystack",
      });
      deps.logger.warn(
        "an unconfirmed refund never reached Paystack; the payment is back in the queue",
        facts,
      );
      resolved += 1;
    }
  }
  return resolved;
}

/** Paystack's refunds created in [from, to]; `complete` is false when the page cap cut the walk short. */
async function listSince(paystack: PaystackClient, from: Date, to: Date) {
  const found: PaystackRefund[] = [];
  for (let page = 1; page <= MAX_PAGES; page++) {
    const answer = await paystack.listRefunds({ from, to, page, perPage: PER_PAGE });
    found.push(...answer.refunds);
    if (page >= answer.pageCount) return { refunds: found, complete: true };
  }
  return { refunds: found, complete: false };
}
