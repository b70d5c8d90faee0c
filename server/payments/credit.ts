import { and, eq, ne } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { payments, students } from "../db/schema.ts";
import { feeRefusal } from "../../src/lib/payments/fees.ts";
import type { PaymentOption } from "../../src/lib/payments/fee-status.ts";
import type { Logger } from "../http/logger.ts";
import type { PaystackTransaction } from "../paystack/client.ts";
import type { PaymentReceipts } from "./receipt.ts";

export type PaymentRow = typeof payments.$inferSelect;

/** What Paystack says happened to a transaction, from verify or from a signed webhook. */
export type ProviderResult = Pick<
  PaystackTransaction,
  "status" | "amountKobo" | "currency" | "paidAt" | "channel" | "gatewayResponse"
>;

/** What applying a provider result did to our payment. */
export type CreditOutcome =
  /** This call credited the payment; exactly one call ever gets this per reference. */
  | { kind: "credited"; payment: PaymentRow }
  | { kind: "already-credited"; payment: PaymentRow }
  /** Paid, but not the amount or currency we asked for: not credited, left for the bursary. */
  | { kind: "mismatch"; payment: PaymentRow }
  /** Paid, but another payment for the same fee was credited first: left for a refund. */
  | { kind: "duplicate"; payment: PaymentRow }
  | { kind: "failed"; payment: PaymentRow }
  | { kind: "not-paid"; payment: PaymentRow };

type CreditDeps = { db: Database; logger: Logger; now: () => Date; receipts: PaymentReceipts };
type CreditSource = "verify" | "webhook" | "reconcile";

// Paystack's final states other than success; the rest (abandoned, ongoing, pending…) may still pay.
const FINAL_FAILURES = new Set(["failed", "reversed"]);
const ONE_SUCCESS_INDEX = "payments_one_success_per_option";

/**
 * Records Paystack's answer on our payment. Crediting is one conditional UPDATE, so verify,
 * webhook and reconciler racing each other credit a reference once, and the partial unique
 * index stops a second payment for the same fee being credited.
 */
export async function applyProviderResult(
  deps: CreditDeps,
  payment: PaymentRow,
  result: ProviderResult,
  source: CreditSource,
): Promise<CreditOutcome> {
  if (payment.status === "success") return { kind: "already-credited", payment };
  const facts = { reference: payment.reference, source };
  const now = deps.now();

  if (result.status === "success") {
    if (result.amountKobo !== payment.amountKobo || result.currency !== payment.currency) {
      deps.logger.error("payment amount or currency differs from the fee; not credited", {
        ...facts,
        expected: `${payment.amountKobo} ${payment.currency}`,
        received: `${result.amountKobo} ${result.currency}`,
      });
      const note = "Paid amount or currency did not match the fee; the bursary will review it";
      return settle(
        deps.db,
        payment,
        { status: "mismatch", gatewayResponse: note, lastCheckedAt: now },
        "mismatch",
      );
    }
    try {
      const credited = await deps.db.transaction(async (tx) => {
        // Two payments for one fee (say part and full, both started before either was paid)
        // must see each other: the student's row serialises their crediting.
        await tx
          .select({ id: students.id })
          .from(students)
          .where(eq(students.id, payment.studentId))
          .for("update");
        const settled = await tx
          .select({ option: payments.paymentOption })
          .from(payments)
          .where(
            and(
              eq(payments.studentId, payment.studentId),
              eq(payments.level, payment.level),
              eq(payments.session, payment.session),
              eq(payments.status, "success"),
              ne(payments.reference, payment.reference),
            ),
          );
        const choice = {
          option: payment.paymentOption as PaymentOption,
          level: payment.level,
          session: payment.session,
        };
        if (
          feeRefusal(
            choice,
            settled.map((row) => row.option),
          )
        )
          return "overpaid" as const;
        const [row] = await tx
          .update(payments)
          .set({
            status: "success",
            paidAt: result.paidAt ?? now,
            channel: result.channel,
            gatewayResponse: result.gatewayResponse,
            lastCheckedAt: now,
          })
          .where(and(eq(payments.reference, payment.reference), ne(payments.status, "success")))
          .returning();
        if (row) await deps.receipts.enqueue(tx, row);
        return row ?? null;
      });
      if (credited === "overpaid") throw new OverpaidFee();
      if (credited) {
        deps.logger.info("payment credited", { ...facts, amountKobo: credited.amountKobo });
        return { kind: "credited", payment: credited };
      }
      return { kind: "already-credited", payment: await reload(deps.db, payment) };
    } catch (error) {
      if (!(error instanceof OverpaidFee) && !violates(error, ONE_SUCCESS_INDEX)) throw error;
      deps.logger.error("a second payment for an already credited fee; refund it", facts);
      const note = "Paid twice for the same fee; the bursary will refund this payment";
      return settle(
        deps.db,
        payment,
        { status: "duplicate", gatewayResponse: note, lastCheckedAt: now },
        "duplicate",
      );
    }
  }

  if (FINAL_FAILURES.has(result.status)) {
    const change = {
      status: result.status,
      gatewayResponse: result.gatewayResponse,
      lastCheckedAt: now,
    };
    return settle(deps.db, payment, change, "failed");
  }
  const change = { gatewayResponse: result.gatewayResponse, lastCheckedAt: now };
  return settle(deps.db, payment, change, "not-paid");
}

/** Changes a payment that is not credited; one credited meanwhile is reported as such. */
async function settle(
  db: Database,
  payment: PaymentRow,
  change: Partial<PaymentRow>,
  kind: "mismatch" | "duplicate" | "failed" | "not-paid",
): Promise<CreditOutcome> {
  const [row] = await db
    .update(payments)
    .set(change)
    .where(and(eq(payments.reference, payment.reference), ne(payments.status, "success")))
    .returning();
  if (row) return { kind, payment: row };
  return { kind: "already-credited", payment: await reload(db, payment) };
}

async function reload(db: Database, payment: PaymentRow): Promise<PaymentRow> {
  const [row] = await db.select().from(payments).where(eq(payments.id, payment.id));
  return row!;
}

/** The fee was already settled by other payments when this one was paid: an overpayment. */
class OverpaidFee extends Error {}

/** Whether a database error (as each driver reports it) is a unique violation of `index`. */
function violates(error: unknown, index: string): boolean {
  for (let cause = error; cause instanceof Error; cause = cause.cause) {
    const { code, constraint } = cause as { code?: string; constraint?: string };
    if (code === "23505") return constraint === undefined || constraint === index;
  }
  return false;
}
