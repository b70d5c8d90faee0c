import { and, eq, inArray } from "drizzle-orm";
import { z } from "zod";
import type { ApiDeps } from "../app.ts";
import { payments, refunds } from "../db/schema.ts";
import { formatKobo } from "../../src/lib/staff/bursary.ts";
import { paymentByReference } from "./credit.ts";
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

/**
 * A signed `refund.processed` / `refund.failed`: settles our pending refund. A refund made at
 * Paystack without us (its dashboard) is recorded too; one of a credited payment takes the
 * credit back and flags the student (decision 102). Answers what it did, for the log.
 */
export async function applyRefundEvent(deps: Pick<ApiDeps, "db" | "now" | "logger">, { event, data }: RefundEvent) {
  const { db, now } = deps;
  const [payment] = await paymentByReference(db).execute({ reference: data.transaction_reference });
  if (!payment) return "unknown reference";
  await recordPaymentEvent(db, payment.id, "webhook-received", now(), { event, amount_kobo: data.amount, currency: data.currency, refund_id: data.id ?? null });
  const outcome = event === "refund.processed" ? "processed" : "failed";

  const [pending] = await db.select().from(refunds).where(and(eq(refunds.paymentId, payment.id), eq(refunds.status, "pending")));
  if (pending) return (await settleRefund(deps, pending.id, outcome, { paystack_refund_id: data.id ?? null })) ? `refund ${outcome}` : "already settled";
  if (outcome === "failed") return "no pending refund";

  if (payment.status === "success") {
    const cause = `refunded at Paystack (${formatKobo(data.amount, data.currency)})`;
    await takeBackCredit(db, payment, { status: "refunded", cause, staffId: null, at: now() });
    deps.logger.error("a credited payment was refunded at Paystack; credit taken back", { reference: payment.reference });
    return "credit taken back";
  }
  // Refunded from Paystack's dashboard rather than the portal: record it so the queue empties.
  return db.transaction(async (tx) => {
    const changed = await tx
      .update(payments)
      .set({ status: "refunded" })
      .where(and(eq(payments.id, payment.id), inArray(payments.status, REFUNDABLE_STATUSES)))
      .returning({ id: payments.id });
    if (!changed.length) return "nothing to change";
    await recordPaymentEvent(tx, payment.id, "refund-processed", now(), { outside_portal: true, amount_kobo: data.amount });
    return "refunded outside the portal";
  });
}
