import { and, eq, inArray } from "drizzle-orm";
import { z } from "zod";
import type { ApiDeps } from "../deps.ts";
import type { Transaction } from "../db/client.ts";
import { paymentEvents, payments, refunds } from "../db/schema.ts";
import { formatKobo } from "../../common/payments/bursary.ts";
import { flagForBursary } from "./bursary-flags.ts";
import { paymentByReference, type PaymentRow } from "./credit.ts";
import { recordPaymentEvent } from "./payment-events.ts";
import { REFUNDABLE_STATUSES, settleRefund } from "./refunds.ts";
import { takeBackCredit } from "./reversal.ts";

// Only what we read of Paystack's refund events.
export const RefundEvent = z.object({
  event: z.enum(["refund.processed", "refund.failed"]),
  data: z.object({
    id: z.number().int().optional(),
    transaction_reference: z.string().min(1).max(100),
    amount: z.number().int().nonnegative(),
    currency: z.string(),
  }),
});
export type RefundEvent = z.infer<typeof RefundEvent>;
type RefundData = RefundEvent["data"];
type Deps = Pick<ApiDeps, "db" | "now" | "logger">;

/**
 * A signed `refund.processed` / `refund.failed`: settles the refund of ours Paystack names by
 * its id, or the pending one whose id we never heard (Paystack did not answer, decision 141)
 * when the amount agrees. A refund we did not ask for is never applied to another: it is
 * recorded, and a refund made at Paystack's dashboard changes the payment only as far as its
 * amount goes (decisions 102, 141). Answers what it did, for the log.
 */
export async function applyRefundEvent(deps: Deps, { event, data }: RefundEvent) {
  const { db, now } = deps;
  const [payment] = await paymentByReference(db).execute({ reference: data.transaction_reference });
  if (!payment) return "unknown reference";
  await recordPaymentEvent(db, payment.id, "webhook-received", now(), {
    event,
    amount_kobo: data.amount,
    currency: data.currency,
    refund_id: data.id ?? null,
  });
  const outcome = event === "refund.processed" ? "processed" : "failed";

  const ours = await db.select().from(refunds).where(eq(refunds.paymentId, payment.id));
  const named =
    data.id === undefined ? undefined : ours.find((refund) => refund.paystackRefundId === data.id);
  const unconfirmed = ours.find(
    (refund) =>
      refund.status === "pending" &&
      (refund.paystackRefundId === null || data.id === undefined) &&
      refund.amountKobo === data.amount &&
      refund.currency === data.currency,
  );
  const mine = named ?? unconfirmed;
  if (mine) {
    const settled = await settleRefund(
      deps,
      mine.id,
      outcome,
      { paystack_refund_id: data.id ?? null },
      data.id,
    );
    return settled ? `refund ${outcome}` : "already settled";
  }
  return db.transaction(async (tx) => {
    // Locked, so a replay racing the first delivery waits and then finds it recorded.
    const [current] = await tx
      .select()
      .from(payments)
      .where(eq(payments.id, payment.id))
      .for("update");
    if (await seenBefore(tx, payment.id, data, outcome)) return "already recorded";
    const live = ours.some((refund) => refund.status === "pending");
    if (outcome === "processed" && !live) return refundedOutsidePortal(deps, tx, current!, data);
    await recordPaymentEvent(tx, payment.id, "refund-unmatched", now(), {
      paystack_refund_id: data.id ?? null,
      outcome,
      amount_kobo: data.amount,
      currency: data.currency,
    });
    const why = live
      ? "while a refund asked here is still pending; that one is unchanged"
      : "that was never asked here";
    await flag(
      deps,
      tx,
      current!,
      `Paystack reports refund ${data.id ?? "(no id)"} of ${formatKobo(data.amount, data.currency)} as ${outcome}, ${why}. Check it on Paystack's dashboard.`,
    );
    deps.logger.error("a refund webhook matches no refund of ours", {
      reference: payment.reference,
      paystackRefundId: data.id ?? null,
      outcome,
    });
    return "unmatched refund flagged";
  });
}

/**
 * A refund made at Paystack's dashboard. A credited payment loses its credit only when what
 * Paystack refunded of it in all covers what was paid; a smaller refund is recorded and flagged,
 * and the student keeps their fee status. A payment waiting for a refund leaves the queue.
 */
async function refundedOutsidePortal(
  deps: Deps,
  tx: Transaction,
  payment: PaymentRow,
  data: RefundData,
) {
  const at = deps.now();
  const paidKobo = payment.paidAmountKobo ?? payment.amountKobo;
  const paidCurrency = payment.paidCurrency ?? payment.currency;
  const paid = formatKobo(paidKobo, paidCurrency);
  const amount = formatKobo(data.amount, data.currency);
  const record = () =>
    recordPaymentEvent(tx, payment.id, "refund-processed", at, {
      outside_portal: true,
      paystack_refund_id: data.id ?? null,
      amount_kobo: data.amount,
      currency: data.currency,
    });

  if (payment.status === "success") {
    const before = (await outsideRefunds(tx, payment.id))
      .filter((refund) => refund.currency === data.currency)
      .reduce((sum, refund) => sum + refund.amountKobo, 0);
    const total = before + data.amount;
    await record();
    if (data.currency === paidCurrency && total >= paidKobo) {
      const cause = `refunded at Paystack (${formatKobo(total, data.currency)} of ${paid} paid)`;
      await takeBackCredit(tx, payment, { status: "refunded", cause, staffId: null, at });
      deps.logger.error("a credited payment was refunded at Paystack; credit taken back", {
        reference: payment.reference,
      });
      return "credit taken back";
    }
    await flag(
      deps,
      tx,
      payment,
      `Paystack refunded ${amount} of this credited payment outside the portal (${formatKobo(total, data.currency)} of ${paid} paid, in all). It still counts as credit: decide whether the student owes the rest.`,
    );
    return "partial refund flagged";
  }
  if (REFUNDABLE_STATUSES.includes(payment.status)) {
    await tx
      .update(payments)
      .set({ status: "refunded" })
      .where(and(eq(payments.id, payment.id), inArray(payments.status, REFUNDABLE_STATUSES)));
    await record();
    if (data.amount < paidKobo || data.currency !== paidCurrency) {
      await flag(
        deps,
        tx,
        payment,
        `Paystack refunded ${amount} of ${paid} outside the portal; the payment left the refund queue. Refund the rest at Paystack's dashboard if it is owed.`,
      );
    }
    return "refunded outside the portal";
  }
  await recordPaymentEvent(tx, payment.id, "refund-unmatched", at, {
    paystack_refund_id: data.id ?? null,
    outcome: "processed",
    amount_kobo: data.amount,
    currency: data.currency,
  });
  await flag(
    deps,
    tx,
    payment,
    `Paystack refunded ${amount} of this ${payment.status} payment outside the portal; nothing here was changed. Check it on Paystack's dashboard.`,
  );
  return "unmatched refund flagged";
}

const flag = (deps: Deps, tx: Transaction, payment: PaymentRow, reason: string) =>
  flagForBursary(tx, {
    studentId: payment.studentId,
    paymentId: payment.id,
    reason,
    at: deps.now(),
  });

/** The dashboard refunds of a payment we recorded, from its events (no refunds row: no one here asked). */
async function outsideRefunds(tx: Transaction, paymentId: number) {
  const events = await tx
    .select({ detail: paymentEvents.detail })
    .from(paymentEvents)
    .where(and(eq(paymentEvents.paymentId, paymentId), eq(paymentEvents.kind, "refund-processed")));
  return events
    .map(({ detail }) => detail)
    .filter((detail) => detail.outside_portal === true)
    .map((detail) => ({
      paystackRefundId: detail.paystack_refund_id,
      amountKobo: Number(detail.amount_kobo),
      currency: String(detail.currency ?? "NGN"),
    }));
}

/** Whether this outcome of this refund of Paystack's was recorded already: its webhook replayed. */
async function seenBefore(
  tx: Transaction,
  paymentId: number,
  data: RefundData,
  outcome: "processed" | "failed",
) {
  if (data.id === undefined) return false;
  const events = await tx
    .select({ kind: paymentEvents.kind, detail: paymentEvents.detail })
    .from(paymentEvents)
    .where(
      and(
        eq(paymentEvents.paymentId, paymentId),
        inArray(paymentEvents.kind, ["refund-processed", "refund-unmatched"]),
      ),
    );
  return events.some(({ kind, detail }) => {
    const recorded =
      kind === "refund-unmatched"
        ? detail.outcome
        : detail.outside_portal === true
          ? "processed"
          : undefined;
    return detail.paystack_refund_id === data.id && recorded === outcome;
  });
}
