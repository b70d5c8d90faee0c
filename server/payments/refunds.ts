import { and, eq, inArray, sql } from "drizzle-orm";
import type { ApiDeps } from "../app.ts";
import { payments, refunds } from "../db/schema.ts";
import { isUniqueViolation } from "../db/unique-violation.ts";
import { ApiError } from "../http/errors.ts";
import { PaystackError } from "../paystack/client.ts";
import { recordAudit } from "../staff/audit.ts";
import { formatKobo, type RefundRequest } from "../../src/lib/staff/bursary.ts";
import { recordPaymentEvent } from "./payment-events.ts";

/** Paid but never credited: the only payments the bursary refunds from the portal (decision 102). */
export const REFUNDABLE_STATUSES = ["duplicate", "mismatch"];

const ALREADY = "This payment already has a refund under way or done. A payment is refunded once.";

/**
 * Starts a refund: in one transaction the payment (locked) moves to `refunding`, the refund row
 * and its audit row are written — so a second click, or a second bursar, is refused — and then
 * Paystack is asked. If Paystack refuses, the refund is marked failed and the payment returns
 * to where it was, so it can be tried again; if Paystack does not answer, both stay as they are
 * until Paystack says what became of the refund (504).
 */
export async function startRefund(deps: ApiDeps, staffId: number, request: RefundRequest) {
  const { db, now } = deps;
  let started;
  try {
    started = await db.transaction(async (tx) => {
      const [payment] = await tx.select().from(payments).where(eq(payments.reference, request.reference)).for("update");
      if (!payment) throw new ApiError(404, "There is no payment with that reference.");
      if (payment.status === "refunding" || payment.status === "refunded") throw new ApiError(409, ALREADY);
      if (!REFUNDABLE_STATUSES.includes(payment.status)) {
        throw new ApiError(409, `Only a duplicate or mismatched payment is refunded here; this one is ${payment.status}.`);
      }
      const paidKobo = payment.paidAmountKobo ?? payment.amountKobo;
      const currency = payment.paidCurrency ?? payment.currency;
      const amountKobo = request.amount_kobo ?? paidKobo;
      if (amountKobo > paidKobo) {
        throw new ApiError(400, `A refund cannot be more than what was paid (${formatKobo(paidKobo, currency)}).`, { fields: { amount_kobo: "More than was paid." } });
      }
      const [refund] = await tx
        .insert(refunds)
        .values({ paymentId: payment.id, amountKobo, currency, reason: request.reason, paymentStatusBefore: payment.status, requestedBy: staffId, requestedAt: now() })
        .returning();
      await tx.update(payments).set({ status: "refunding" }).where(eq(payments.id, payment.id));
      await recordPaymentEvent(tx, payment.id, "refund-requested", now(), { refund_id: refund!.id, amount_kobo: amountKobo, reason: request.reason, staff_id: staffId });
      await recordAudit(tx, { staffId, action: "payment.refund", entity: "payment", entityId: payment.reference, before: { status: payment.status }, after: { status: "refunding", amount_kobo: amountKobo, reason: request.reason } }, now());
      return { payment, refund: refund! };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new ApiError(409, ALREADY);
    throw error;
  }
  const { payment, refund } = started;
  try {
    const answer = await deps.paystack.refund({ reference: payment.reference, amountKobo: refund.amountKobo, merchantNote: request.reason });
    await db.update(refunds).set({ paystackRefundId: answer.id }).where(eq(refunds.id, refund.id));
  } catch (error) {
    if (!(error instanceof PaystackError)) throw error;
    if (!isRefusal(error)) {
      // Paystack may have queued the refund before the answer was lost: settling it failed would
      // put the payment back in the queue to be refunded twice. Its webhook or the refund
      // reconciler settles it (decision 141).
      deps.logger.error("paystack did not answer a refund; left pending", { reference: payment.reference, error: error.message });
      await recordPaymentEvent(db, payment.id, "refund-unconfirmed", now(), { refund_id: refund.id, error: error.message });
      throw new ApiError(504, `Paystack did not answer the refund of ${formatKobo(refund.amountKobo, refund.currency)} for ${payment.reference}, so it may have gone through. Do not refund it again: it stays pending and shows its result when Paystack confirms it.`);
    }
    deps.logger.error("paystack refused a refund", { reference: payment.reference, error: error.message });
    await settleRefund(deps, refund.id, "failed", { error: error.paystackMessage ?? error.message });
    throw new ApiError(502, `Paystack did not accept the refund (${error.paystackMessage ?? `HTTP ${error.httpStatus}`}). Nothing was refunded; you can try again.`);
  }
  return { reference: payment.reference, amountKobo: refund.amountKobo, currency: refund.currency };
}

/**
 * Paystack said no (`status: false`, or a 4xx): nothing was refunded. No answer, a 5xx or an
 * answer we could not read leaves it unknown whether Paystack queued the refund.
 */
function isRefusal(error: PaystackError) {
  return error.paystackMessage !== null || (error.httpStatus !== null && error.httpStatus >= 400 && error.httpStatus < 500);
}

/**
 * Records Paystack's verdict on a pending refund: processed leaves the payment `refunded`,
 * failed returns it to the queue. Answers false when the refund was already settled (a replayed
 * webhook changes nothing).
 */
export async function settleRefund(
  deps: Pick<ApiDeps, "db" | "now">,
  refundId: number,
  outcome: "processed" | "failed",
  detail: Record<string, unknown>,
  /** Paystack's id for a refund whose answer was lost: taken only if it has none yet. */
  paystackRefundId?: number,
) {
  return deps.db.transaction(async (tx) => {
    const [refund] = await tx
      .update(refunds)
      .set({ status: outcome, settledAt: deps.now(), ...(paystackRefundId === undefined ? {} : { paystackRefundId: sql`coalesce(${refunds.paystackRefundId}, ${paystackRefundId})` }) })
      .where(and(eq(refunds.id, refundId), eq(refunds.status, "pending")))
      .returning();
    if (!refund) return false;
    const status = outcome === "processed" ? "refunded" : refund.paymentStatusBefore;
    await tx.update(payments).set({ status }).where(and(eq(payments.id, refund.paymentId), inArray(payments.status, ["refunding"])));
    await recordPaymentEvent(tx, refund.paymentId, outcome === "processed" ? "refund-processed" : "refund-failed", deps.now(), { refund_id: refund.id, ...detail });
    return true;
  });
}
