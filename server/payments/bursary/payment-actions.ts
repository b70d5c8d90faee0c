import type { ApiDeps } from "../../deps.ts";
import { ApiError } from "../../http/errors.ts";
import { PaystackError, type PaystackTransaction } from "../../paystack/client.ts";
import { applyProviderResult, paymentByReference } from "../credit.ts";
import { takeBackCredit } from "../reversal.ts";
import { recordAudit } from "../../audit/audit.ts";

const UNREACHABLE =
  "We could not reach Paystack to check this payment. Try again in a few minutes.";

async function findPayment(deps: Pick<ApiDeps, "db">, reference: string) {
  const [payment] = await paymentByReference(deps.db).execute({ reference });
  if (!payment) throw new ApiError(404, "There is no payment with that reference.");
  return payment;
}

async function askPaystack(deps: ApiDeps, reference: string): Promise<PaystackTransaction> {
  let transaction;
  try {
    transaction = await deps.paystack.verify(reference);
  } catch (error) {
    if (!(error instanceof PaystackError)) throw error;
    throw new ApiError(502, UNREACHABLE);
  }
  if (!transaction)
    throw new ApiError(
      409,
      "Paystack has no transaction with this reference: there is nothing to credit.",
    );
  return transaction;
}

const MESSAGES = {
  credited: "Paystack confirms the payment: it is credited to the student now.",
  "already-credited": "This payment was already credited; nothing changed.",
  duplicate:
    "Paystack confirms the payment, but the fee was already paid: it is in the refund queue.",
  mismatch:
    "Paystack received another amount or currency: not credited, it is in the refund queue.",
  failed: "Paystack reports that this payment failed: nothing to credit.",
  "not-paid": "Paystack has not received this payment: nothing to credit.",
  closed: "This payment is being refunded or was taken back: it cannot be credited.",
} as const;

/**
 * The reconciliation's "verify and credit": asks Paystack and applies the answer through the same
 * exactly-once crediting as the student's verify and the webhook (decision 010), then audits it.
 */
export async function verifyAndCredit(deps: ApiDeps, staffId: number, reference: string) {
  const payment = await findPayment(deps, reference);
  if (payment.status === "success")
    return { changed: false, message: MESSAGES["already-credited"] };
  const transaction = await askPaystack(deps, reference);
  const outcome = await applyProviderResult(deps, payment, transaction, "bursar");
  // The credit itself is in the payment's events, written with it; this row says who asked.
  await recordAudit(
    deps.db,
    {
      staffId,
      action: "payment.verify_credit",
      entity: "payment",
      entityId: reference,
      before: { status: payment.status },
      after: { status: outcome.payment.status, outcome: outcome.kind },
    },
    deps.now(),
  );
  return { changed: outcome.kind === "credited", message: MESSAGES[outcome.kind] };
}

/** The reconciliation's "record the reversal", once Paystack itself confirms the charge was reversed. */
export async function recordReversal(deps: ApiDeps, staffId: number, reference: string) {
  const payment = await findPayment(deps, reference);
  if (payment.status !== "success")
    throw new ApiError(
      409,
      `This payment is ${payment.status}, not credited: there is no credit to take back.`,
    );
  const transaction = await askPaystack(deps, reference);
  if (transaction.status !== "reversed")
    throw new ApiError(
      409,
      `Paystack says this payment is ${transaction.status}, not reversed: the credit stays.`,
    );
  await takeBackCredit(deps.db, payment, {
    status: "reversed",
    cause: "reversed at Paystack",
    staffId,
    at: deps.now(),
  });
  return {
    message: "The credit is taken back and the student's fee status is flagged for follow-up.",
  };
}
