import { and, asc, eq, gt, isNull, lte, or, sql } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { payments } from "../db/schema.ts";
import type { Logger } from "../http/logger.ts";
import { gatewayOf, type GatewayName, type PaymentGateways } from "./gateway.ts";
import { applyProviderResult, type CreditOutcome, type PaymentRow } from "./credit.ts";
import type { PaymentReceipts } from "./receipt.ts";
import { closeIfFeeChanged, closePayment } from "./close-payment.ts";
import { isUnusedAttempt } from "./unused-attempts.ts";
import { settledElsewhereNote } from "./closing-notes.ts";

type ReconcileDeps = {
  db: Database;
  logger: Logger;
  now: () => Date;
  gateways: PaymentGateways;
  receipts: PaymentReceipts;
};

export type ReconcileOptions = {
  /** A payment is re-verified once it is this old, and again this long after each check while young. */
  minAgeMs?: number;
  /** Per gateway: after this long a payment its gateway still calls unpaid is marked abandoned. */
  giveUpAfterMs?: Partial<Record<GatewayName, number>>;
  /** Payments checked per run, so one run stays short. */
  batchSize?: number;
};

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * How long each gateway's payments may still be paid (decision 189). A Paystack checkout or
 * transfer account is over within hours; two days is ample. A Remita RRR stays payable at any
 * bank branch for 90 days: one paid weeks later must still be found and credited.
 */
export const GIVE_UP_AFTER_MS = {
  paystack: 2 * DAY,
  remita: 90 * DAY,
} as const satisfies Record<GatewayName, number>;

/**
 * How often a payment is checked as it ages: every few minutes (`minAgeMs`) on its first day,
 * when most are paid; then hourly for a week; then every six hours. An RRR paid at a bank days
 * later is credited within the hour without anyone pressing anything, and months of unpaid RRRs
 * cost the gateway a few calls a day each rather than hundreds.
 */
function dueForCheck(now: Date, minAgeMs: number) {
  const ago = (ms: number) => new Date(now.getTime() - ms);
  return and(
    eq(payments.status, "pending"),
    lte(payments.generatedAt, ago(minAgeMs)),
    or(
      isNull(payments.lastCheckedAt),
      and(lte(payments.lastCheckedAt, ago(minAgeMs)), gt(payments.generatedAt, ago(DAY))),
      and(lte(payments.lastCheckedAt, ago(HOUR)), gt(payments.generatedAt, ago(7 * DAY))),
      lte(payments.lastCheckedAt, ago(6 * HOUR)),
    ),
  );
}

const DEFAULTS = { minAgeMs: 5 * MINUTE, batchSize: 25 };

/**
 * Re-verifies pending payments older than a few minutes with their gateway, so a student whose
 * browser closed after paying (and whose notification was lost), or who paid an RRR at a bank,
 * is credited without doing anything. One still unpaid when its gateway's time is up
 * (GIVE_UP_AFTER_MS) is marked abandoned; one still unpaid a day after it was started, whose fee
 * has changed since, is closed (decision 152). Answers how many payments it credited.
 */
export async function reconcilePendingPayments(
  deps: ReconcileDeps,
  options: ReconcileOptions = {},
): Promise<number> {
  const { minAgeMs, batchSize } = { ...DEFAULTS, ...options };
  const giveUpAfterMs = { ...GIVE_UP_AFTER_MS, ...options.giveUpAfterMs };
  const now = deps.now();
  const due = await deps.db
    .select()
    .from(payments)
    .where(dueForCheck(now, minAgeMs))
    .orderBy(sql`${payments.lastCheckedAt} asc nulls first`, asc(payments.generatedAt))
    .limit(batchSize);

  let credited = 0;
  for (const payment of due) {
    const facts = { reference: payment.reference };
    try {
      const gateway = gatewayOf(deps.gateways, payment);
      const transaction = await gateway.verify(payment);
      const stale = now.getTime() - payment.generatedAt.getTime() > giveUpAfterMs[gateway.name];
      let outcome: CreditOutcome["kind"] | "unknown" = "unknown";
      if (transaction)
        outcome = (await applyProviderResult(deps, payment, transaction, "reconcile")).kind;
      if (outcome === "credited") credited += 1;
      // The gateway was asked first, so money it already took is credited above, never closed.
      if (outcome === "not-paid" && (await closeIfFeeChanged(deps, payment, now))) continue;
      if (
        outcome === "not-paid" &&
        gateway.cancel &&
        (await feeSettledElsewhere(deps.db, payment))
      ) {
        await closePayment(deps, payment, { by: "portal", note: settledElsewhereNote(payment) });
        continue;
      }
      if ((outcome === "not-paid" && stale) || outcome === "unknown") {
        const note = transaction
          ? (payment.gatewayResponse ?? `${gateway.label} still reports this payment unpaid`)
          : `${gateway.label} has no record of this payment`;
        await closePayment(deps, payment, { by: "portal", note });
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

/**
 * Whether the school fee a pending payment is for has been settled by the student's other
 * payments since it was started: an RRR left over then could still be paid at a bank, twice.
 */
async function feeSettledElsewhere(db: Database, payment: PaymentRow) {
  if (payment.kind !== "school_fee") return false;
  const theirs = await db
    .select({
      id: payments.id,
      status: payments.status,
      paymentOption: payments.paymentOption,
      level: payments.level,
      session: payments.session,
    })
    .from(payments)
    .where(and(eq(payments.studentId, payment.studentId), eq(payments.kind, "school_fee")));
  return isUnusedAttempt(payment, theirs);
}
