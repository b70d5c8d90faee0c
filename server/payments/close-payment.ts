import { and, eq } from "drizzle-orm";
import type { ApiDeps } from "../deps.ts";
import { payments } from "../db/schema.ts";
import { ApiError } from "../http/errors.ts";
import { applyProviderResult, paymentByReference, type PaymentRow } from "./credit.ts";
import { GatewayError, gatewayOf } from "./gateway.ts";
import { recordPaymentEvent } from "./payment-events.ts";
import { feeChangedNote, outdatedBy } from "./fee-change.ts";
import { cancelledByStudentNote } from "./closing-notes.ts";

type CloseDeps = Pick<ApiDeps, "db" | "logger" | "now" | "gateways" | "receipts">;

/** Why the portal closes a payment, in the words its history keeps, and who decided. */
export type Closing = {
  by: "student" | "portal";
  note: string;
  /** More facts for the payment's history (the new fee, the payment that settled it…). */
  detail?: Record<string, unknown>;
};

/**
 * What closing an unpaid payment did: closed here (and withdrawn at its gateway where the gateway
 * would still take money for it); found paid (the money came first, so it went through crediting
 * instead); or left as it was, because it had already changed.
 */
export type CloseOutcome =
  | { kind: "closed"; payment: PaymentRow }
  | { kind: "paid"; payment: PaymentRow }
  | { kind: "unchanged"; payment: PaymentRow };

/**
 * Marks a pending payment abandoned. A gateway that would keep it payable after the student has
 * left (a Remita RRR stays payable at any bank for 90 days) withdraws it first, and only then is
 * it closed here, so a payment the gateway took money for is never closed: that one is credited
 * through the one crediting path. Throws the gateway's error when it could not be asked: the
 * payment then stays open, to be closed on a later try. Money that still arrives for a closed
 * payment is credited as ever (abandoned stays open to crediting).
 */
export async function closePayment(
  deps: CloseDeps,
  payment: PaymentRow,
  closing: Closing,
): Promise<CloseOutcome> {
  const gateway = gatewayOf(deps.gateways, payment);
  if (payment.status !== "pending") return { kind: "unchanged", payment };
  if (gateway.cancel && (await gateway.cancel(payment)) === "already-paid") {
    const transaction = await gateway.verify(payment);
    if (!transaction) return { kind: "unchanged", payment };
    const outcome = await applyProviderResult(deps, payment, transaction, "verify");
    return { kind: outcome.kind === "not-paid" ? "unchanged" : "paid", payment: outcome.payment };
  }
  const now = deps.now();
  return deps.db.transaction(async (tx) => {
    const [closed] = await tx
      .update(payments)
      .set({ status: "abandoned", gatewayResponse: closing.note, lastCheckedAt: now })
      .where(and(eq(payments.id, payment.id), eq(payments.status, "pending")))
      .returning();
    if (!closed) return { kind: "unchanged" as const, payment };
    await recordPaymentEvent(tx, payment.id, "abandoned", now, {
      note: closing.note,
      ...closing.detail,
      ...(gateway.cancel ? { withdrawn_at: gateway.name } : {}),
      ...(closing.by === "student" ? { by: "student" } : {}),
    });
    return { kind: "closed" as const, payment: closed };
  });
}

/**
 * Closes a pending payment its gateway says is unpaid when it is more than 24 hours old and its
 * fee has changed, with the new amount in its note (decision 152). Answers the note, or null when
 * the payment stays open (also when its gateway could not be asked to withdraw it: a later check
 * tries again). Money the gateway takes for it later is still credited, at what was received,
 * and flagged.
 */
export async function closeIfFeeChanged(
  deps: CloseDeps,
  payment: PaymentRow,
  now: Date,
): Promise<string | null> {
  const newKobo = await outdatedBy(deps.db, payment, now);
  if (newKobo === null) return null;
  const note = feeChangedNote(newKobo);
  try {
    const outcome = await closePayment(deps, payment, {
      by: "portal",
      note,
      detail: { fee_changed_to_kobo: newKobo },
    });
    return outcome.kind === "closed" ? note : null;
  } catch (error) {
    if (!(error instanceof GatewayError)) throw error;
    deps.logger.warn("could not withdraw a payment whose fee changed", {
      reference: payment.reference,
      error: error.message,
    });
    return null;
  }
}

const UNKNOWN =
  "We have no payment with that reference. Check it, or start a new payment from the Payment page.";

/**
 * The student cancels one of their own unpaid RRRs (they will pay another way, or the invoice was
 * lost): Remita withdraws it, so nobody can pay it at a bank afterwards. Answers the payment as it
 * now stands: abandoned, or credited when Remita says it was paid after all.
 */
export async function cancelOwnPayment(
  deps: CloseDeps,
  studentId: number,
  reference: string,
  /** Runs just before Remita is asked (and may refuse): a refused cancel costs the student nothing. */
  countGatewayCheck: () => Promise<void>,
): Promise<CloseOutcome> {
  const [payment] = await paymentByReference(deps.db).execute({ reference });
  if (!payment || payment.studentId !== studentId) throw new ApiError(404, UNKNOWN);
  const gateway = gatewayOf(deps.gateways, payment);
  if (!gateway.cancel)
    throw new ApiError(
      409,
      `A ${gateway.label} payment cannot be cancelled: one that is not paid closes by itself. Start a new payment whenever you are ready.`,
    );
  if (payment.status === "success")
    throw new ApiError(409, "This payment is already paid and credited: it cannot be cancelled.");
  if (payment.status !== "pending")
    throw new ApiError(
      409,
      `This payment is ${payment.status}, not waiting to be paid: there is nothing to cancel.`,
    );
  await countGatewayCheck();
  const note = cancelledByStudentNote(payment.gatewayReference, deps.now());
  try {
    return await closePayment(deps, payment, { by: "student", note });
  } catch (error) {
    if (!(error instanceof GatewayError)) throw error;
    deps.logger.warn(`${gateway.name} cancel failed`, { reference, error: error.message });
    throw new ApiError(
      502,
      `We could not reach ${gateway.label} to cancel this RRR, so it can still be paid. Please try again in a few minutes.`,
    );
  }
}
