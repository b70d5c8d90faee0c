import { and, eq, inArray } from "drizzle-orm";
import type { ApiDeps } from "../deps.ts";
import type { Transaction } from "../db/client.ts";
import { paymentEvents, payments, refunds } from "../db/schema.ts";
import { formatKobo } from "../../common/payments/bursary.ts";
import { flagForBursary } from "./bursary-flags.ts";
import { paymentByReference, type PaymentRow } from "./credit.ts";
import type { GatewayNotification } from "./gateway.ts";
import { recordPaymentEvent } from "./payment-events.ts";
import { REFUNDABLE_STATUSES, settleRefund } from "./refunds.ts";
import { takeBackCredit } from "./reversal.ts";

/** A refund's outcome, as the gateway's signed notification told it. */
type RefundData = Extract<GatewayNotification, { kind: "refund" }>;
type Deps = Pick<ApiDeps, "db" | "now" | "logger">;

/**
 * A signed `refund.processed` / `refund.failed`: settles the refund of ours Paystack names by
 * its id, or the pending one whose id we never heard (Paystack did not answer, decision 141)
 * when the amount agrees. A refund we did not ask for is never applied to another: it is
 * recorded, and a refund made at Paystack's dashboard changes the payment only as far as its
 * amount goes (decisions 102, 141). Answers what it did, for the log.
 */
export async function applyRefundEvent(deps: Deps, data: RefundData) {
  const { db, now } = deps;
  const [payment] = await paymentByReference(db).execute({ reference: data.reference });
  if (!payment) return "unknown reference";
  await recordPaymentEvent(db, payment.id, "webhook-received", now(), {
    event: `refund.${data.outcome}`,
    amount_kobo: data.amountKobo,
    currency: data.currency,
    refund_id: data.refundId,
  });
  const { outcome } = data;

  const ours = await db.select().from(refunds).where(eq(refunds.paymentId, payment.id));
  const named =
    data.refundId === null
      ? undefined
      : ours.find((refund) => refund.paystackRefundId === data.refundId);
  const unconfirmed = ours.find(
    (refund) =>
      refund.status === "pending" &&
      (refund.paystackRefundId === null || data.refundId === null) &&
      refund.amountKobo === data.amountKobo &&
      refund.currency === data.currency,
  );
  const mine = named ?? unconfirmed;
  if (mine) {
    const settled = await settleRefund(
      deps,
      mine.id,
      outcome,
      { paystack_refund_id: data.refundId },
      data.refundId ?? undefined,
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
      paystack_refund_id: data.refundId,
      outcome,
      amount_kobo: data.amountKobo,
      currency: data.currency,
    });
    const why = live
      ? "while a refund asked here is still pending; that one is unchanged"
      : "that was never asked here";
    await flag(
      deps,
      tx,
      current!,
      `Paystack reports refund ${data.refundId ?? "(no id)"} of ${formatKobo(data.amountKobo, data.currency)} as ${outcome}, ${why}. Check it on Paystack's dashboard.`,
    );
    deps.logger.error("a refund webhook matches no refund of ours", {
      reference: payment.reference,
      paystackRefundId: data.refundId,
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
  const amount = formatKobo(data.amountKobo, data.currency);
  const record = () =>
    recordPaymentEvent(tx, payment.id, "refund-processed", at, {
      outside_portal: true,
      paystack_refund_id: data.refundId,
      amount_kobo: data.amountKobo,
      currency: data.currency,
    });

  if (payment.status === "success") {
    const before = (await outsideRefunds(tx, payment.id))
      .filter((refund) => refund.currency === data.currency)
      .reduce((sum, refund) => sum + refund.amountKobo, 0);
    const total = before + data.amountKobo;
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
    if (data.amountKobo < paidKobo || data.currency !== paidCurrency) {
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
    paystack_refund_id: data.refundId,
    outcome: "processed",
    amount_kobo: data.amountKobo,
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
  if (data.refundId === null) return false;
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
    return detail.paystack_refund_id === data.refundId && recorded === outcome;
  });
}
