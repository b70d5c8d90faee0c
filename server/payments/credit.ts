import { and, eq, inArray, sql } from "drizzle-orm";
import type { Database, Transaction } from "../db/client.ts";
import { placeholderValue, preparedQuery } from "../db/prepared.ts";
import { payments, transcriptRequests } from "../db/schema.ts";
import { feeRefusal, type FeeChoice } from "../../common/payments/fees.ts";
import type { PaymentOption } from "../../common/payments/fee-status.ts";
import type { Logger } from "../http/logger.ts";
import type { GatewayTransaction } from "./gateway.ts";
import type { PaymentReceipts } from "./receipt.ts";
import { lockStudent } from "../students/student-lock.ts";
import { creditedOptions } from "./fee-schedule.ts";
import { formatKobo } from "../../common/payments/bursary.ts";
import { formatHistoryDate } from "../../common/format/dates.ts";
import { flagForBursary } from "./bursary-flags.ts";
import { outdatedBy } from "./fee-change.ts";
import { recordPaymentEvent } from "./payment-events.ts";

export type PaymentRow = typeof payments.$inferSelect;

/** What the gateway says happened to a payment, from verify or from a signed notification. */
export type ProviderResult = Pick<
  GatewayTransaction,
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
  | { kind: "not-paid"; payment: PaymentRow }
  /** Being refunded, refunded or reversed: no answer from the gateway changes it again. */
  | { kind: "closed"; payment: PaymentRow };

type CreditDeps = { db: Database; logger: Logger; now: () => Date; receipts: PaymentReceipts };
/** Who asked the gateway: the student's verify or Requery, the webhook, the reconciler, a bursar. */
type CreditSource = "verify" | "webhook" | "reconcile" | "bursar";

// The gateway's final states other than success; the rest (abandoned, ongoing, pending…) may still pay.
const FINAL_FAILURES = new Set(["failed", "reversed"]);
// A school fee's option, or a transcript request, is credited once; a second payment is a duplicate.
const ONE_SUCCESS_INDEXES = [
  "payments_one_success_per_option",
  "payments_one_success_per_transcript",
];
/**
 * The statuses a gateway's answer may still change. Not success (credited once), nor refunding,
 * refunded or reversed: money on its way back must never be credited (decision 102).
 */
export const OPEN_STATUSES = ["pending", "failed", "abandoned", "duplicate", "mismatch"];
const isOpen = (status: string) => OPEN_STATUSES.includes(status);

/**
 * Records the gateway's answer on our payment. Crediting is one conditional UPDATE, so verify,
 * webhook and reconciler racing each other credit a reference once, and the partial unique
 * index stops a second payment for the same fee being credited.
 */
export async function applyProviderResult(
  deps: CreditDeps,
  payment: PaymentRow,
  result: ProviderResult,
  source: CreditSource,
): Promise<CreditOutcome> {
  const facts = { reference: payment.reference, source };
  const now = deps.now();
  // Every answer is kept, even one that changes nothing: the history shows what the gateway said.
  await recordPaymentEvent(
    deps.db,
    payment.id,
    source === "webhook" ? "webhook-received" : "verify-answer",
    now,
    {
      source,
      status: result.status,
      amount_kobo: result.amountKobo,
      currency: result.currency,
      gateway_response: result.gatewayResponse,
    },
  );
  if (payment.status === "success") return { kind: "already-credited", payment };
  if (!isOpen(payment.status)) return { kind: "closed", payment };
  const paid = { paidAmountKobo: result.amountKobo, paidCurrency: result.currency };

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
        { status: "mismatch", gatewayResponse: note, lastCheckedAt: now, ...paid },
        "mismatch",
        now,
      );
    }
    try {
      const credited = await deps.db.transaction(async (tx) => {
        // Two payments for one fee (say part and full, both started before either was paid)
        // must see each other: the student's row serialises their crediting. The lock's read
        // is also whom the receipt goes to.
        const payer = await lockStudent(tx, payment.studentId);
        // Only a school fee is settled by other options; a transcript request is paid once, which
        // the unique index holds (decision 182).
        if (payment.kind === "school_fee") {
          const settled = await creditedOptions(tx, payment.studentId, payment, payment.reference);
          const choice = {
            option: payment.paymentOption as PaymentOption,
            level: payment.level,
            session: payment.session,
          };
          if (creditRefusal(choice, settled)) return "overpaid" as const;
        }
        const [row] = await creditOpenPayment(tx).execute({
          reference: payment.reference,
          paidAt: result.paidAt ?? now,
          channel: result.channel,
          gatewayResponse: result.gatewayResponse,
          lastCheckedAt: now,
          ...paid,
        });
        if (row) await deps.receipts.enqueue(tx, row, payer!);
        if (row) await recordPaymentEvent(tx, row.id, "credited", now, { source });
        if (row) await flagIfFeeChanged(tx, row, now);
        if (row) await flagIfRequestCancelled(tx, row, now);
        return row ?? null;
      });
      if (credited === "overpaid") throw new OverpaidFee();
      if (credited) {
        deps.logger.info("payment credited", { ...facts, amountKobo: credited.amountKobo });
        return { kind: "credited", payment: credited };
      }
      return changedMeanwhile(deps.db, payment);
    } catch (error) {
      if (!(error instanceof OverpaidFee) && !violatesAny(error, ONE_SUCCESS_INDEXES)) throw error;
      deps.logger.error("a second payment for an already credited fee; refund it", facts);
      const note = "Paid twice for the same fee; the bursary will refund this payment";
      return settle(
        deps.db,
        payment,
        { status: "duplicate", gatewayResponse: note, lastCheckedAt: now, ...paid },
        "duplicate",
        now,
      );
    }
  }

  if (FINAL_FAILURES.has(result.status)) {
    const change = {
      status: result.status,
      gatewayResponse: result.gatewayResponse,
      lastCheckedAt: now,
    };
    return settle(deps.db, payment, change, "failed", now);
  }
  const change = { gatewayResponse: result.gatewayResponse, lastCheckedAt: now };
  return settle(deps.db, payment, change, "not-paid", now);
}

/**
 * Money the gateway took for a payment more than a day old whose fee changed since (abandoned, or
 * about to be) still credits, at what was received; the bursary decides about the difference
 * (decision 152).
 */
async function flagIfFeeChanged(tx: Transaction, row: PaymentRow, now: Date) {
  const newKobo = await outdatedBy(tx, row, now);
  if (newKobo === null) return;
  const reason = `Credited at ${formatKobo(row.paidAmountKobo ?? row.amountKobo, row.paidCurrency ?? row.currency)} received, though the fee changed to ${formatKobo(newKobo)} after this payment was started and it was not paid within 24 hours. Decide whether the student owes the difference or is owed a refund.`;
  await flagForBursary(tx, { studentId: row.studentId, paymentId: row.id, reason, at: now });
}

/**
 * Money the gateway took for a transcript request its student cancelled before the payment came
 * in (decision 186) is still money received: credited, with its receipt, so the books show it. The
 * request stays cancelled and is never released; the bursary refunds the payment. The student's
 * row, locked above, orders this against the cancel, which takes it too.
 */
async function flagIfRequestCancelled(tx: Transaction, row: PaymentRow, now: Date) {
  if (row.transcriptRequestId === null) return;
  const [request] = await tx
    .select({ cancelledAt: transcriptRequests.cancelledAt })
    .from(transcriptRequests)
    .where(eq(transcriptRequests.id, row.transcriptRequestId));
  if (!request?.cancelledAt) return;
  const reason = `Credited at ${formatKobo(row.paidAmountKobo ?? row.amountKobo, row.paidCurrency ?? row.currency)} received for transcript request ${row.transcriptRequestId}, which the student cancelled on ${formatHistoryDate(request.cancelledAt)}, before this payment came in. No transcript is released for it: refund the payment.`;
  await flagForBursary(tx, { studentId: row.studentId, paymentId: row.id, reason, at: now });
}

/** A payment by its reference, as the student's verify and a gateway's webhook look it up. */
export const paymentByReference = preparedQuery((db) =>
  db
    .select()
    .from(payments)
    .where(eq(payments.reference, sql.placeholder("reference")))
    .prepare("payment_by_reference"),
);

/** Credits a payment the gateway says is paid, unless it is credited or closed already. */
const creditOpenPayment = preparedQuery((db) =>
  db
    .update(payments)
    .set({
      status: "success",
      paidAt: placeholderValue("paidAt"),
      channel: placeholderValue("channel"),
      gatewayResponse: placeholderValue("gatewayResponse"),
      lastCheckedAt: placeholderValue("lastCheckedAt"),
      paidAmountKobo: placeholderValue("paidAmountKobo"),
      paidCurrency: placeholderValue("paidCurrency"),
    })
    .where(
      and(
        eq(payments.reference, sql.placeholder("reference")),
        inArray(payments.status, OPEN_STATUSES),
      ),
    )
    .returning()
    .prepare("credit_open_payment"),
);

/**
 * Changes a payment that is not credited, with its event when the status changes; one credited
 * meanwhile is reported as such.
 */
async function settle(
  db: Database,
  payment: PaymentRow,
  change: Partial<PaymentRow>,
  kind: "mismatch" | "duplicate" | "failed" | "not-paid",
  now: Date,
): Promise<CreditOutcome> {
  const row = await db.transaction(async (tx) => {
    const [changed] = await tx
      .update(payments)
      .set(change)
      .where(
        and(eq(payments.reference, payment.reference), inArray(payments.status, OPEN_STATUSES)),
      )
      .returning();
    if (changed && kind !== "not-paid" && changed.status !== payment.status) {
      await recordPaymentEvent(tx, changed.id, kind, now, { note: changed.gatewayResponse });
    }
    return changed;
  });
  if (row) return { kind, payment: row };
  return changedMeanwhile(db, payment);
}

/** Another call credited or closed the payment between our read and our update. */
async function changedMeanwhile(db: Database, payment: PaymentRow): Promise<CreditOutcome> {
  const [row] = await db.select().from(payments).where(eq(payments.id, payment.id));
  return row!.status === "success"
    ? { kind: "already-credited", payment: row! }
    : { kind: "closed", payment: row! };
}

/** The fee was already settled by other payments when this one was paid: an overpayment. */
class OverpaidFee extends Error {}

/**
 * Why a payment the gateway received may not be credited, given what is credited already: the quote's
 * rules (decision 011), except that a late fee is owed on top of the fee. A late fee started
 * beside the full fee, before either was credited, was rightly charged; refusing it because the
 * full fee happened to be credited first would call it "paid twice" in one order and keep it in
 * the other. A second late fee still meets the one-success-per-option index.
 */
export function creditRefusal(choice: FeeChoice, credited: readonly string[]) {
  return choice.option === "latefees" ? null : feeRefusal(choice, credited);
}

/** Whether a database error (as each driver reports it) is a unique violation of one of `indexes`. */
function violatesAny(error: unknown, indexes: readonly string[]): boolean {
  for (let cause = error; cause instanceof Error; cause = cause.cause) {
    const { code, constraint } = cause as { code?: string; constraint?: string };
    if (code === "23505") return constraint === undefined || indexes.includes(constraint);
  }
  return false;
}
