import { and, eq, notInArray, sql } from "drizzle-orm";
import type { PgUpdateSetSource } from "drizzle-orm/pg-core";
import type { ApiDeps } from "../deps.ts";
import type { Transaction } from "../db/client.ts";
import { payments, refunds, staff, students } from "../db/schema.ts";
import { isUniqueViolation } from "../db/unique-violation.ts";
import { ApiError } from "../http/errors.ts";
import { GatewayError, gatewayOf, type PaymentGateway } from "./gateway.ts";
import { recordAudit } from "../audit/audit.ts";
import { lockStudent } from "../students/student-lock.ts";
import {
  formatKobo,
  PAYEE_ACCOUNT_DIGITS,
  refundTo,
  type Payee,
  type RefundPreview,
  type RefundRequest,
} from "../../common/payments/bursary.ts";
import type { PaymentOption } from "../../common/payments/fee-status.ts";
import { flagForBursary } from "./bursary-flags.ts";
import { creditRefusal, type PaymentRow } from "./credit.ts";
import { creditedOptions } from "./fee-schedule.ts";
import { recordPaymentEvent, type PaymentEventKind } from "./payment-events.ts";

/** Paid but never credited: held for a refund (decision 102). */
export const REFUNDABLE_STATUSES = ["duplicate", "mismatch"];
/** What the bursary refunds from the portal: those, and any credited payment (decision 151). */
const REFUNDABLE_HERE = ["success", ...REFUNDABLE_STATUSES];
/** A refund in these states no longer holds its payment: it may be asked again. */
const ENDED = ["failed", "declined"];

const ALREADY = "This payment already has a refund under way or done. A payment is refunded once.";

type RefundDeps = Pick<ApiDeps, "db" | "now" | "logger" | "gateways" | "refundSecondApprovalKobo">;
type RefundRow = typeof refunds.$inferSelect;
type Payer = { payment: PaymentRow; studentName: string; matricNo: string | null };

/** The payment and whose it is; locked when asked, so every change to its refunds queues behind it. */
async function paymentAndPayer(
  tx: Transaction,
  where: { reference: string } | { id: number },
  lock: boolean,
): Promise<Payer> {
  const query = tx
    .select({
      payment: payments,
      surname: students.surname,
      othername: students.othername,
      matricNo: students.matricNo,
    })
    .from(payments)
    .innerJoin(students, eq(students.id, payments.studentId))
    .where(
      "reference" in where ? eq(payments.reference, where.reference) : eq(payments.id, where.id),
    );
  const [row] = lock ? await query.for("update", { of: payments }) : await query;
  if (!row) throw new ApiError(404, "There is no payment with that reference.");
  return {
    payment: row.payment,
    studentName: `${row.surname} ${row.othername}`,
    matricNo: row.matricNo,
  };
}

const paidOf = (payment: PaymentRow) => ({
  kobo: payment.paidAmountKobo ?? payment.amountKobo,
  currency: payment.paidCurrency ?? payment.currency,
});

/**
 * Whether this refund may be asked, and what it would do: refuses (and changes nothing) a payment
 * Paystack holds no money for, one with a refund already, or an amount above what was paid.
 */
async function plan(
  tx: Transaction,
  deps: Pick<RefundDeps, "refundSecondApprovalKobo" | "gateways">,
  payer: Payer,
  request: RefundRequest,
): Promise<RefundPreview> {
  const { payment } = payer;
  const gateway = gatewayOf(deps.gateways, payment);
  const live = await tx
    .select({ id: refunds.id })
    .from(refunds)
    .where(and(eq(refunds.paymentId, payment.id), notInArray(refunds.status, ENDED)));
  if (live.length || payment.status === "refunding" || payment.status === "refunded")
    throw new ApiError(409, ALREADY);
  if (!REFUNDABLE_HERE.includes(payment.status)) {
    throw new ApiError(
      409,
      `${gateway.label} holds no money of this payment to refund: it is ${payment.status}. Only a credited payment, or one paid twice or at another amount, is refunded.`,
    );
  }
  const paid = paidOf(payment);
  const amountKobo = request.amount_kobo ?? paid.kobo;
  if (amountKobo > paid.kobo) {
    throw new ApiError(
      400,
      `A refund cannot be more than what was paid (${formatKobo(paid.kobo, paid.currency)}).`,
      { fields: { amount_kobo: "More than was paid." } },
    );
  }
  const outside = !gateway.offers.refundApi;
  return {
    reference: payment.reference,
    student_name: payer.studentName,
    matric_no: payer.matricNo,
    amount_kobo: amountKobo,
    currency: paid.currency,
    paid_kobo: paid.kobo,
    reason: request.reason,
    credited: payment.status === "success",
    whole: amountKobo === paid.kobo,
    needs_second_approval: amountKobo > deps.refundSecondApprovalKobo,
    gateway: gateway.label,
    outside,
    payee: outside ? payeeOf(gateway, request) : refuseBankDetails(gateway, request),
  };
}

/**
 * The student's account an outside refund is paid into (decision 190): all three details, or a
 * 400 naming each one missing.
 */
function payeeOf(gateway: PaymentGateway, request: RefundRequest): Payee {
  const { account_name, account_number, bank } = request;
  if (account_name && account_number && bank) return { account_name, account_number, bank };
  const fields: Record<string, string> = {};
  if (!account_name) fields.account_name = "Give the name on the student's bank account.";
  if (!account_number) fields.account_number = PAYEE_ACCOUNT_DIGITS;
  if (!bank) fields.bank = "Name the student's bank.";
  throw new ApiError(
    400,
    `${gateway.label} has no refunds: the bursary pays this one by bank transfer, outside the portal. Give the student's account name, 10-digit account number and bank.`,
    { fields },
  );
}

/** A gateway that refunds pays the money back the way it came: bank details would be ignored, so they are refused. */
function refuseBankDetails(gateway: PaymentGateway, request: RefundRequest): null {
  if (request.account_name || request.account_number || request.bank) {
    throw new ApiError(
      400,
      `${gateway.label} refunds the money the way the student paid it: leave the bank details empty.`,
      { fields: { account_number: "Leave empty for this payment." } },
    );
  }
  return null;
}

/** What a refund asked of Paystack leaves the payment as: a part of a credited payment leaves it credited. */
const statusWhileRefunding = (preview: Pick<RefundPreview, "credited" | "whole">) =>
  preview.credited && !preview.whole ? "success" : "refunding";

/** The confirmation page's facts: what the refund would do, checked as asking it would, changing nothing. */
export async function checkRefund(
  deps: RefundDeps,
  request: RefundRequest,
): Promise<RefundPreview> {
  return deps.db.transaction(async (tx) =>
    plan(tx, deps, await paymentAndPayer(tx, request, false), request),
  );
}

export type RefundOutcome = RefundPreview & { state: "asked" | "waiting" | "to-pay-outside" };

/**
 * Asks for a refund. In one transaction the payment is locked and the refund row and its audit
 * row written, so a second click or a second bursar is refused. Above the second-approval line
 * the refund waits (nothing else changes); otherwise the payment moves to `refunding` (a part of
 * a credited payment leaves it credited) and Paystack is asked after the commit.
 */
export async function askRefund(
  deps: RefundDeps,
  staffId: number,
  request: RefundRequest,
): Promise<RefundOutcome> {
  const { now } = deps;
  let asked;
  try {
    asked = await deps.db.transaction(async (tx) => {
      const payer = await paymentAndPayer(tx, request, true);
      const preview = await plan(tx, deps, payer, request);
      const { payment } = payer;
      const waiting = preview.needs_second_approval;
      const [refund] = await tx
        .insert(refunds)
        .values({
          paymentId: payment.id,
          amountKobo: preview.amount_kobo,
          currency: preview.currency,
          reason: request.reason,
          status: waiting ? "awaiting_approval" : "pending",
          paymentStatusBefore: payment.status,
          requestedBy: staffId,
          requestedAt: now(),
          ...payeeColumns(preview.payee),
        })
        .returning();
      const facts = {
        refund_id: refund!.id,
        amount_kobo: preview.amount_kobo,
        reason: request.reason,
        staff_id: staffId,
        ...preview.payee,
      };
      if (waiting) {
        await recordPaymentEvent(tx, payment.id, "refund-awaiting-approval", now(), facts);
        await recordAudit(
          tx,
          {
            staffId,
            action: "payment.refund_request",
            entity: "payment",
            entityId: payment.reference,
            before: { status: payment.status },
            after: {
              refund: "awaiting_approval",
              refund_id: refund!.id,
              amount_kobo: preview.amount_kobo,
              reason: request.reason,
              ...outsideFacts(preview.payee),
            },
          },
          now(),
        );
      } else {
        const status = statusWhileRefunding(preview);
        await tx.update(payments).set({ status }).where(eq(payments.id, payment.id));
        await recordPaymentEvent(tx, payment.id, askedEvent(preview), now(), facts);
        await recordAudit(
          tx,
          {
            staffId,
            action: "payment.refund",
            entity: "payment",
            entityId: payment.reference,
            before: { status: payment.status },
            after: {
              status,
              refund_id: refund!.id,
              amount_kobo: preview.amount_kobo,
              reason: request.reason,
              ...outsideFacts(preview.payee),
            },
          },
          now(),
        );
      }
      return { preview, refund: refund!, payment };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new ApiError(409, ALREADY);
    throw error;
  }
  if (asked.preview.needs_second_approval) return { ...asked.preview, state: "waiting" };
  return send(deps, asked.payment, asked.refund, asked.preview);
}

/** A refund now due: the gateway is asked for it, or it waits for the bursary's bank transfer. */
async function send(
  deps: RefundDeps,
  payment: PaymentRow,
  refund: RefundRow,
  preview: RefundPreview,
): Promise<RefundOutcome> {
  if (preview.outside) return { ...preview, state: "to-pay-outside" };
  await sendToPaystack(deps, payment, refund, preview);
  return { ...preview, state: "asked" };
}

const payeeColumns = (payee: Payee | null) =>
  payee
    ? {
        outside: true,
        payeeAccountName: payee.account_name,
        payeeAccountNumber: payee.account_number,
        payeeBank: payee.bank,
      }
    : {};

const outsideFacts = (payee: Payee | null) => (payee ? { outside: true, ...payee } : {});

const askedEvent = (preview: Pick<RefundPreview, "outside">) =>
  preview.outside ? "refund-to-pay-outside" : "refund-requested";

const payeeOfRow = (refund: RefundRow): Payee | null =>
  refund.outside
    ? {
        account_name: refund.payeeAccountName!,
        account_number: refund.payeeAccountNumber!,
        bank: refund.payeeBank!,
      }
    : null;

/** A refund waiting for its second approver, read with the payment (locked when asked). */
async function waitingRefund(tx: Transaction, refundId: number, lock: boolean) {
  const [found] = await tx.select().from(refunds).where(eq(refunds.id, refundId));
  if (!found) throw new ApiError(404, "There is no such refund.");
  // The payment first, as asking a refund locks it: one order of locks, so no deadlock.
  const payer = await paymentAndPayer(tx, { id: found.paymentId }, lock);
  const [refund] = lock
    ? await tx.select().from(refunds).where(eq(refunds.id, refundId)).for("update")
    : [found];
  if (refund!.status !== "awaiting_approval") {
    const now =
      refund!.status === "declined"
        ? "was declined"
        : refund!.status === "pending"
          ? refund!.outside
            ? "was approved, to be paid by bank transfer"
            : "was approved and asked of Paystack"
          : `is ${refund!.status}`;
    throw new ApiError(409, `This refund is no longer waiting for an approver: it ${now}.`);
  }
  return { refund: refund!, ...payer };
}

/** What the approval page shows: the refund, its payment and whose it is. */
export async function refundForApproval(
  deps: Pick<RefundDeps, "db" | "gateways">,
  refundId: number,
) {
  return deps.db.transaction(async (tx) =>
    describeWaiting(tx, deps, await waitingRefund(tx, refundId, false)),
  );
}

async function describeWaiting(
  tx: Transaction,
  deps: Pick<RefundDeps, "gateways">,
  { refund, payment, studentName, matricNo }: { refund: RefundRow } & Payer,
) {
  const [asker] = await tx
    .select({ name: staff.name })
    .from(staff)
    .where(eq(staff.id, refund.requestedBy));
  const paid = paidOf(payment);
  return {
    id: refund.id,
    status: refund.status,
    reference: payment.reference,
    student_name: studentName,
    matric_no: matricNo,
    amount_kobo: refund.amountKobo,
    currency: refund.currency,
    paid_kobo: paid.kobo,
    reason: refund.reason,
    credited: refund.paymentStatusBefore === "success",
    whole: refund.amountKobo === paid.kobo,
    requested_by: asker?.name ?? "",
    requested_by_id: refund.requestedBy,
    requested_at: refund.requestedAt.toISOString(),
    gateway: gatewayOf(deps.gateways, payment).label,
    outside: refund.outside,
    payee: payeeOfRow(refund),
  };
}

const SAME_PERSON =
  "You asked for this refund, so someone else must approve it: another bursary officer or an administrator.";

/**
 * The second approver's yes: only someone other than the one who asked, only while the refund
 * waits and its payment is as it was when asked. Then the refund goes to Paystack as any other.
 */
export async function approveRefund(
  deps: RefundDeps,
  staffId: number,
  refundId: number,
): Promise<RefundOutcome> {
  const { now } = deps;
  const approved = await deps.db.transaction(async (tx) => {
    const found = await waitingRefund(tx, refundId, true);
    const { refund, payment } = found;
    if (refund.requestedBy === staffId) throw new ApiError(403, SAME_PERSON);
    if (payment.status !== refund.paymentStatusBefore) {
      throw new ApiError(
        409,
        `The payment changed since this refund was asked (it was ${refund.paymentStatusBefore}, now ${payment.status}). Decline this refund, and ask again if one is still owed.`,
      );
    }
    const described = await describeWaiting(tx, deps, found);
    await tx
      .update(refunds)
      .set({ status: "pending", approvedBy: staffId, approvedAt: now() })
      .where(and(eq(refunds.id, refund.id), eq(refunds.status, "awaiting_approval")));
    const status = statusWhileRefunding(described);
    await tx.update(payments).set({ status }).where(eq(payments.id, payment.id));
    const facts = {
      refund_id: refund.id,
      amount_kobo: refund.amountKobo,
      reason: refund.reason,
      staff_id: refund.requestedBy,
      approved_by: staffId,
      ...described.payee,
    };
    await recordPaymentEvent(tx, payment.id, askedEvent(described), now(), facts);
    await recordAudit(
      tx,
      {
        staffId,
        action: "payment.refund_approve",
        entity: "payment",
        entityId: payment.reference,
        before: { status: payment.status, refund: "awaiting_approval" },
        after: { status, refund: "pending", refund_id: refund.id, amount_kobo: refund.amountKobo },
      },
      now(),
    );
    return { described, refund: { ...refund, status: "pending" }, payment };
  });
  const preview = { ...approved.described, needs_second_approval: true };
  return send(deps, approved.payment, approved.refund, preview);
}

/** A waiting refund turned down, with the reason; the payment is as it was, and may be refunded again later. */
export async function declineRefund(
  deps: Pick<RefundDeps, "db" | "now" | "gateways">,
  staffId: number,
  refundId: number,
  reason: string,
) {
  const { now } = deps;
  return deps.db.transaction(async (tx) => {
    const found = await waitingRefund(tx, refundId, true);
    const { refund, payment } = found;
    const described = await describeWaiting(tx, deps, found);
    await tx
      .update(refunds)
      .set({ status: "declined", declinedBy: staffId, declinedAt: now(), declineReason: reason })
      .where(eq(refunds.id, refund.id));
    await recordPaymentEvent(tx, payment.id, "refund-declined", now(), {
      refund_id: refund.id,
      amount_kobo: refund.amountKobo,
      reason,
      staff_id: staffId,
    });
    await recordAudit(
      tx,
      {
        staffId,
        action: "payment.refund_decline",
        entity: "payment",
        entityId: payment.reference,
        before: { refund: "awaiting_approval", refund_id: refund.id },
        after: { refund: "declined", reason },
      },
      now(),
    );
    return described;
  });
}

/**
 * Asks Paystack for a refund already written as pending. If Paystack refuses, the refund is
 * marked failed and the payment returns to where it was, so it can be tried again; if Paystack
 * does not answer, both stay as they are until Paystack says what became of it (504, decision 141).
 */
async function sendToPaystack(
  deps: RefundDeps,
  payment: PaymentRow,
  refund: RefundRow,
  preview: Pick<RefundPreview, "amount_kobo" | "currency" | "student_name" | "matric_no">,
) {
  const { now } = deps;
  try {
    const answer = await gatewayOf(deps.gateways, payment).refund({
      reference: payment.reference,
      amountKobo: refund.amountKobo,
      merchantNote: refund.reason,
    });
    await deps.db
      .update(refunds)
      .set({ paystackRefundId: answer.id })
      .where(eq(refunds.id, refund.id));
  } catch (error) {
    if (!(error instanceof GatewayError)) throw error;
    if (!error.isRefusal) {
      // Paystack may have queued the refund before the answer was lost: settling it failed would
      // put the payment back in the queue to be refunded twice. Its webhook or the refund
      // reconciler settles it (decision 141).
      deps.logger.error("paystack did not answer a refund; left pending", {
        reference: payment.reference,
        error: error.message,
      });
      await recordPaymentEvent(deps.db, payment.id, "refund-unconfirmed", now(), {
        refund_id: refund.id,
        error: error.message,
      });
      throw new ApiError(
        504,
        `Paystack did not answer the refund of ${refundTo(preview)} for ${payment.reference}, so it may have gone through. Do not refund it again: it stays pending and shows its result when Paystack confirms it.`,
      );
    }
    deps.logger.error("paystack refused a refund", {
      reference: payment.reference,
      error: error.message,
    });
    await settleRefund(deps, refund.id, "failed", {
      error: error.gatewayMessage ?? error.message,
    });
    throw new ApiError(
      502,
      `Paystack did not accept the refund of ${refundTo(preview)} (${error.gatewayMessage ?? `HTTP ${error.httpStatus}`}). Nothing was refunded; you can try again.`,
    );
  }
}

/**
 * Records Paystack's verdict on a pending refund: processed leaves a payment that was refunding
 * `refunded` (a part of a credited payment stays credited), failed returns it to where it was.
 * Answers false when the refund was already settled (a replayed webhook changes nothing).
 */
export async function settleRefund(
  deps: Pick<ApiDeps, "db" | "now">,
  refundId: number,
  outcome: "processed" | "failed",
  detail: Record<string, unknown>,
  /** Paystack's id for a refund whose answer was lost: taken only if it has none yet. */
  paystackRefundId?: number,
) {
  return deps.db.transaction(async (tx) =>
    Boolean(
      await settleIn(tx, deps, refundId, outcome, detail, {
        ...(paystackRefundId === undefined
          ? {}
          : { paystackRefundId: sql`coalesce(${refunds.paystackRefundId}, ${paystackRefundId})` }),
      }),
    ),
  );
}

/** Settles a pending refund inside the caller's transaction; answers it, or null when it was not pending. */
async function settleIn(
  tx: Transaction,
  deps: Pick<ApiDeps, "now">,
  refundId: number,
  outcome: "processed" | "failed",
  detail: Record<string, unknown>,
  columns: PgUpdateSetSource<typeof refunds>,
  event: PaymentEventKind = outcome === "processed" ? "refund-processed" : "refund-failed",
) {
  const [refund] = await tx
    .update(refunds)
    .set({ status: outcome, settledAt: deps.now(), ...columns })
    .where(and(eq(refunds.id, refundId), eq(refunds.status, "pending")))
    .returning();
  if (!refund) return null;
  const status =
    outcome === "processed" ? "refunded" : await statusAfterFailedRefund(deps, tx, refund);
  await tx
    .update(payments)
    .set({ status })
    .where(and(eq(payments.id, refund.paymentId), eq(payments.status, "refunding")));
  await recordPaymentEvent(tx, refund.paymentId, event, deps.now(), {
    refund_id: refund.id,
    ...detail,
  });
  return refund;
}

/** An outside refund still to be paid, with its payment locked first (the order every refund change takes). */
async function outsideRefundToSettle(tx: Transaction, refundId: number) {
  const [found] = await tx.select().from(refunds).where(eq(refunds.id, refundId));
  if (!found) throw new ApiError(404, "There is no such refund.");
  const payer = await paymentAndPayer(tx, { id: found.paymentId }, true);
  const [refund] = await tx.select().from(refunds).where(eq(refunds.id, refundId)).for("update");
  if (!refund!.outside)
    throw new ApiError(
      409,
      "This refund goes through the payment's gateway, not by bank transfer: it shows as refunded when the gateway confirms it.",
    );
  if (refund!.status === "awaiting_approval")
    throw new ApiError(
      409,
      "This refund still waits for its second approver: pay it only once it is approved.",
    );
  if (refund!.status === "processed")
    throw new ApiError(
      409,
      `This refund is already marked paid, by the transfer ${refund!.transferReference}.`,
    );
  if (refund!.status !== "pending")
    throw new ApiError(409, `This refund is ${refund!.status}: there is nothing to pay.`);
  return { refund: refund!, ...payer };
}

/**
 * Settles an outside refund as the bursary reports it, in `tx`: the refund and its payment move
 * as when Paystack settles a refund, the audit log keeps who said so, and the answer names the
 * student and what the payment became.
 */
async function settleOutside(
  tx: Transaction,
  deps: Pick<RefundDeps, "now">,
  staffId: number,
  refundId: number,
  settlement: {
    outcome: "processed" | "failed";
    facts: Record<string, unknown>;
    columns: PgUpdateSetSource<typeof refunds>;
    event?: PaymentEventKind;
    action: "payment.refund_paid_outside" | "payment.refund_not_paid_outside";
  },
) {
  const { refund, payment, studentName, matricNo } = await outsideRefundToSettle(tx, refundId);
  const { outcome, facts } = settlement;
  await settleIn(
    tx,
    deps,
    refund.id,
    outcome,
    { ...facts, staff_id: staffId },
    settlement.columns,
    settlement.event,
  );
  const [after] = await tx
    .select({ status: payments.status })
    .from(payments)
    .where(eq(payments.id, payment.id));
  await recordAudit(
    tx,
    {
      staffId,
      action: settlement.action,
      entity: "payment",
      entityId: payment.reference,
      before: { status: payment.status, refund: "pending", refund_id: refund.id },
      after: { status: after!.status, refund: outcome, ...facts },
    },
    deps.now(),
  );
  return {
    reference: payment.reference,
    amount_kobo: refund.amountKobo,
    currency: refund.currency,
    student_name: studentName,
    matric_no: matricNo,
    status: after!.status,
  };
}

/**
 * The bursary paid an outside refund by bank transfer (decision 190): it is processed with the
 * bank's reference, and the payment follows as when Paystack processes a refund. One transfer
 * reference marks one refund.
 */
export async function markPaidOutside(
  deps: Pick<RefundDeps, "db" | "now">,
  staffId: number,
  refundId: number,
  transferReference: string,
) {
  try {
    const { status, ...settled } = await deps.db.transaction((tx) =>
      settleOutside(tx, deps, staffId, refundId, {
        outcome: "processed",
        facts: { paid_outside: true, transfer_reference: transferReference },
        columns: { transferReference, settledBy: staffId },
        event: "refund-paid-outside",
        action: "payment.refund_paid_outside",
      }),
    );
    return { ...settled, counts: status === "success" };
  } catch (error) {
    if (isUniqueViolation(error))
      throw new ApiError(
        409,
        "That transfer reference already marks another refund paid. Check the reference on the bank's record: one transfer pays one refund.",
        { fields: { transfer_reference: "Already used for another refund." } },
      );
    throw error;
  }
}

/**
 * The bursary could not pay an outside refund (the account was wrong, the bank refused): it is
 * failed with the reason, and the payment returns as when Paystack fails a refund, to be refunded
 * again with the right details.
 */
export async function markNotPaidOutside(
  deps: Pick<RefundDeps, "db" | "now">,
  staffId: number,
  refundId: number,
  reason: string,
) {
  return deps.db.transaction((tx) =>
    settleOutside(tx, deps, staffId, refundId, {
      outcome: "failed",
      facts: { paid_outside: false, reason },
      columns: { settledBy: staffId },
      action: "payment.refund_not_paid_outside",
    }),
  );
}

/**
 * A credited payment whose whole refund failed counts again, unless the student paid the same
 * fee again meanwhile: then it is paid twice, held for a refund and flagged (decision 151).
 */
async function statusAfterFailedRefund(
  deps: Pick<ApiDeps, "now">,
  tx: Transaction,
  refund: RefundRow,
) {
  if (refund.paymentStatusBefore !== "success") return refund.paymentStatusBefore;
  const [payment] = await tx.select().from(payments).where(eq(payments.id, refund.paymentId));
  if (payment!.status !== "refunding") return refund.paymentStatusBefore;
  // The student's row first, as crediting takes it: the same order of locks.
  await lockStudent(tx, payment!.studentId);
  const credited = await creditedOptions(tx, payment!.studentId, payment!, payment!.reference);
  const choice = {
    option: payment!.paymentOption as PaymentOption,
    level: payment!.level,
    session: payment!.session,
  };
  if (!credited.includes(choice.option) && !creditRefusal(choice, credited)) return "success";
  const refunded = `${payment!.reference} (${formatKobo(refund.amountKobo, refund.currency)})`;
  const reason = `${refund.outside ? `The bank transfer refunding ${refunded} was not made` : `Paystack did not refund ${refunded}`}, but the student paid the same fee again meanwhile: it is held as paid twice. Refund it from the queue.`;
  await flagForBursary(tx, {
    studentId: payment!.studentId,
    paymentId: payment!.id,
    reason,
    at: deps.now(),
  });
  return "duplicate";
}
