import type { ApiDeps } from "../deps.ts";
import { ApiError } from "../http/errors.ts";
import { GatewayError, gatewayOf, type PaymentGateway } from "./gateway.ts";
import { isOfflineChannel } from "../../common/payments/channels.ts";
import { groupedRrr } from "../../common/payments/rrr.ts";
import { applyProviderResult, paymentByReference, type PaymentRow } from "./credit.ts";
import { closeIfFeeChanged } from "./close-payment.ts";
import { recordPaymentEvent } from "./payment-events.ts";
import { paymentsOfStudent } from "./payment-info.ts";
import { isUnusedAttempt } from "./unused-attempts.ts";

const UNKNOWN =
  "We have no payment with that reference. Check it, or start a new payment from the Payment page.";
const unreachable = (gateway: PaymentGateway) =>
  `We could not reach ${gateway.label} to check this payment. Please press Requery again in a few minutes.`;

/**
 * Asks the payment's gateway about one of the student's own payments and records the answer (spec: verify
 * and Requery). Answers the credited payment, or refuses with what the student can do next.
 * `countGatewayCheck` runs just before the gateway is asked (and may refuse): a payment already
 * credited or not the student's is answered from our own records and costs nothing.
 */
export async function verifyOwnPayment(
  deps: ApiDeps,
  studentId: number,
  reference: string,
  countGatewayCheck: () => Promise<void>,
  /** The gateway's own reference the return named with ours (Remita's RRR): it must be this payment's. */
  gatewayReference?: string,
): Promise<PaymentRow> {
  const [payment] = await paymentByReference(deps.db).execute({ reference });
  // Another student's reference gets the same answer as an unknown one: it reveals nothing; so
  // does a return that pairs our reference with another payment's RRR.
  if (!payment || payment.studentId !== studentId) throw new ApiError(404, UNKNOWN);
  if (gatewayReference !== undefined && payment.gatewayReference !== gatewayReference)
    throw new ApiError(404, UNKNOWN);
  if (payment.status === "success") return payment;

  await countGatewayCheck();
  const gateway = gatewayOf(deps.gateways, payment);
  let transaction;
  try {
    transaction = await gateway.verify(payment);
  } catch (error) {
    if (!(error instanceof GatewayError)) throw error;
    deps.logger.warn(`${gateway.name} verify failed`, { reference, error: error.message });
    throw new ApiError(502, unreachable(gateway));
  }
  if (!transaction) {
    await recordPaymentEvent(deps.db, payment.id, "verify-answer", deps.now(), {
      source: "verify",
      status: "not found",
    });
    throw new ApiError(
      409,
      `${gateway.label} has no record of this payment. Start a new payment from the Payment page.`,
    );
  }
  const outcome = await applyProviderResult(deps, payment, transaction, "verify");
  switch (outcome.kind) {
    case "credited":
    case "already-credited":
      return outcome.payment;
    case "not-paid":
      throw new ApiError(
        409,
        (await closeIfFeeChanged(deps, payment, deps.now())) ??
          (await notPaidYet(deps, gateway, payment)),
      );
    case "failed":
      throw new ApiError(
        409,
        `${gateway.label} reports that this payment did not go through (${outcome.payment.gatewayResponse ?? outcome.payment.status}). Start a new payment from the Payment page.`,
      );
    case "closed":
      throw new ApiError(
        409,
        `This payment is being refunded or was taken back at ${gateway.label}, so it does not count towards your fees. Contact the bursary with reference ${reference}.`,
      );
    case "mismatch":
    case "duplicate":
      throw new ApiError(
        409,
        `This payment was received but could not be credited automatically (${outcome.payment.gatewayResponse}). Contact the bursary with reference ${reference}.`,
      );
  }
}

/**
 * What "the gateway has no money for this payment" means to the student. A card checkout left
 * without paying is the usual case, and often sits beside the payment that did go through: it
 * must not read as money gone missing. A transfer or USSD payment may simply not have arrived.
 */
async function notPaidYet(
  deps: ApiDeps,
  gateway: PaymentGateway,
  payment: PaymentRow,
): Promise<string> {
  const all = await paymentsOfStudent(deps.db).execute({ studentId: payment.studentId });
  if (isUnusedAttempt(payment, all)) {
    return `Not used — no money taken. The fee this attempt (${payment.reference}) was for is paid with another payment, so there is nothing to do.`;
  }
  if (payment.gatewayReference && payment.gateway === "remita") {
    return `${gateway.label} has not received payment for RRR ${groupedRrr(payment.gatewayReference)} yet. It stays payable: pay it online on ${gateway.label} or at any bank branch. It is credited as soon as ${gateway.label} confirms it, even if you close this page.`;
  }
  if (isOfflineChannel(payment.channel)) {
    return `${gateway.label} has not received this payment yet. If you have sent it, wait a minute and check again: it is credited as soon as it arrives, even if you close this page.`;
  }
  return `No money is recorded for this attempt (${payment.reference}). If you left ${gateway.label}'s page without paying, nothing was taken: pay from the Payment page when you are ready. If your bank shows the money gone, wait a minute and press Requery again; a payment that arrives is also credited by itself within a few minutes.`;
}
