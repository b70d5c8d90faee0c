import { and, asc, eq, isNull, lte, or, sql } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { payments } from "../db/schema.ts";
import type { Logger } from "../http/logger.ts";
import { gatewayOf, type PaymentGateways } from "./gateway.ts";
import { applyProviderResult, type CreditOutcome } from "./credit.ts";
import type { PaymentReceipts } from "./receipt.ts";
import { abandonIfFeeChanged } from "./fee-change.ts";
import { recordPaymentEvent } from "./payment-events.ts";

type ReconcileDeps = {
  db: Database;
  logger: Logger;
  now: () => Date;
  gateways: PaymentGateways;
  receipts: PaymentReceipts;
};

export type ReconcileOptions = {
  /** A payment is re-verified once it is this old, and again this long after each check. */
  minAgeMs?: number;
  /** After this long a payment its gateway still calls unpaid is marked abandoned. */
  giveUpAfterMs?: number;
  /** Payments checked per run, so one run stays short. */
  batchSize?: number;
};

const MINUTE = 60_000;
const DEFAULTS = { minAgeMs: 5 * MINUTE, giveUpAfterMs: 48 * 60 * MINUTE, batchSize: 25 };

/**
 * Re-verifies pending payments older than a few minutes with their gateway, so a student whose
 * browser closed after paying (and whose webhook was lost) is credited without doing anything.
 * One still unpaid a day after it was started, whose fee has changed since, is closed (decision
 * 152). Answers how many payments it credited.
 */
export async function reconcilePendingPayments(
  deps: ReconcileDeps,
  options: ReconcileOptions = {},
): Promise<number> {
  const { minAgeMs, giveUpAfterMs, batchSize } = { ...DEFAULTS, ...options };
  const now = deps.now();
  const checkedBefore = new Date(now.getTime() - minAgeMs);
  const due = await deps.db
    .select()
    .from(payments)
    .where(
      and(
        eq(payments.status, "pending"),
        lte(payments.generatedAt, checkedBefore),
        or(isNull(payments.lastCheckedAt), lte(payments.lastCheckedAt, checkedBefore)),
      ),
    )
    .orderBy(sql`${payments.lastCheckedAt} asc nulls first`, asc(payments.generatedAt))
    .limit(batchSize);

  let credited = 0;
  for (const payment of due) {
    const facts = { reference: payment.reference };
    try {
      const gateway = gatewayOf(deps.gateways, payment);
      const transaction = await gateway.verify(payment);
      const stale = now.getTime() - payment.generatedAt.getTime() > giveUpAfterMs;
      let outcome: CreditOutcome["kind"] | "unknown" = "unknown";
      if (transaction)
        outcome = (await applyProviderResult(deps, payment, transaction, "reconcile")).kind;
      if (outcome === "credited") credited += 1;
      // The gateway was asked first, so money it already took is credited above, never abandoned.
      if (outcome === "not-paid" && (await abandonIfFeeChanged(deps.db, payment, now))) continue;
      if ((outcome === "not-paid" && stale) || outcome === "unknown") {
        const note = transaction
          ? payment.gatewayResponse
          : `${gateway.label} has no record of this payment`;
        await markAbandoned(deps.db, payment.id, now, note);
      }
    } catch (error) {
      // One payment its gateway cannot answer for must not stop the others.
      deps.logger.warn("reconcile could not verify a payment", { ...facts, error: String(error) });
      await deps.db.update(payments).set({ lastCheckedAt: now }).where(eq(payments.id, payment.id));
    }
  }
  if (due.length)
    deps.logger.info("reconciled pending payments", { checked: due.length, credited });
  return credited;
}

async function markAbandoned(db: Database, id: number, now: Date, note: string | null) {
  await db.transaction(async (tx) => {
    const changed = await tx
      .update(payments)
      .set({ status: "abandoned", gatewayResponse: note, lastCheckedAt: now })
      .where(and(eq(payments.id, id), eq(payments.status, "pending")))
      .returning({ id: payments.id });
    if (changed.length) await recordPaymentEvent(tx, id, "abandoned", now, { note });
  });
}
