import { and, asc, eq, inArray, isNull, lte } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { payments, refunds } from "../db/schema.ts";
import type { Logger } from "../http/logger.ts";
import type { GatewayRefund, PaymentGateway, PaymentGateways } from "./gateway.ts";
import { settleRefund } from "./refunds.ts";

type Deps = { db: Database; logger: Logger; now: () => Date; gateways: PaymentGateways };

export type RefundReconcileOptions = {
  /** A refund is looked for once it is this old: the gateway's webhook usually comes first. */
  minAgeMs?: number;
  /** Not in the gateway's complete list this long after it was asked: the gateway never had it. */
  giveUpAfterMs?: number;
  batchSize?: number;
};

const MINUTE = 60_000;
const DEFAULTS = { minAgeMs: 5 * MINUTE, giveUpAfterMs: 60 * MINUTE, batchSize: 25 };
// The gateway's clock and ours may differ a little; its refund is created after our row.
const CLOCK_MARGIN_MS = 5 * MINUTE;
const PER_PAGE = 100;
const MAX_PAGES = 50;

/**
 * Refunds whose answer from the gateway was lost stay pending without the gateway's id (decision
 * 141). This finds each in the gateway's list of refunds (Paystack's `GET /refund`) by its
 * transaction, amount and currency: a refund the gateway processed or failed is settled, one still
 * under way takes its id (its webhook then settles it), and one missing from the whole list an
 * hour later never reached the gateway and is settled failed, so the payment returns to the
 * queue. Answers how many refunds it resolved.
 */
export async function reconcileUnconfirmedRefunds(
  deps: Deps,
  options: RefundReconcileOptions = {},
): Promise<number> {
  let resolved = 0;
  // A gateway without refunds (Remita) has none to find: its refunds are paid by the bursary
  // outside the portal and marked paid by hand (decision 190).
  for (const gateway of Object.values(deps.gateways).filter((each) => each.offers.refundApi)) {
    resolved += await reconcileRefundsAt(deps, gateway, options);
  }
  return resolved;
}

async function reconcileRefundsAt(
  deps: Deps,
  gateway: PaymentGateway,
  options: RefundReconcileOptions,
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
        eq(refunds.outside, false),
        eq(payments.gateway, gateway.name),
        isNull(refunds.paystackRefundId),
        lte(refunds.requestedAt, new Date(now.getTime() - minAgeMs)),
      ),
    )
    .orderBy(asc(refunds.requestedAt))
    .limit(batchSize);
  if (!due.length) return 0;

  const from = new Date(due[0]!.refund.requestedAt.getTime() - CLOCK_MARGIN_MS);
  let listed: { refunds: GatewayRefund[]; complete: boolean };
  try {
    listed = await listSince(gateway, from, new Date(now.getTime() + CLOCK_MARGIN_MS));
  } catch (error) {
    deps.logger.warn(
      `could not list ${gateway.label}'s refunds; unconfirmed refunds wait for the next run`,
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
      deps.logger.info(`found an unconfirmed refund at ${gateway.label}`, {
        ...facts,
        paystackRefundId: found.id,
        status: found.status,
      });
      resolved += 1;
    } else if (listed.complete && now.getTime() - refund.requestedAt.getTime() > giveUpAfterMs) {
      await settleRefund(deps, refund.id, "failed", {
        source: "reconcile",
        note: `${gateway.label} lists no such refund: it never reached ${gateway.label}`,
      });
      deps.logger.warn(
        `an unconfirmed refund never reached ${gateway.label}; the payment is back in the queue`,
        facts,
      );
      resolved += 1;
    }
  }
  return resolved;
}

/** The gateway's refunds created in [from, to]; `complete` is false when the page cap cut the walk short. */
async function listSince(gateway: PaymentGateway, from: Date, to: Date) {
  const found: GatewayRefund[] = [];
  for (let page = 1; page <= MAX_PAGES; page++) {
    const answer = await gateway.listRefunds({ from, to, page, perPage: PER_PAGE });
    found.push(...answer.refunds);
    if (page >= answer.pageCount) return { refunds: found, complete: true };
  }
  return { refunds: found, complete: false };
}
