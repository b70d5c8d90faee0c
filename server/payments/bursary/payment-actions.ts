import { eq } from "drizzle-orm";
import type { ApiDeps } from "../../deps.ts";
import { students } from "../../db/schema.ts";
import { formatKobo } from "../../../common/payments/bursary.ts";
import { ApiError } from "../../http/errors.ts";
import {
  GatewayError,
  gatewayOf,
  type GatewayTransaction,
  type PaymentAtGateway,
  type PaymentGateway,
} from "../gateway.ts";
import { applyProviderResult, paymentByReference, type CreditOutcome } from "../credit.ts";
import { takeBackCredit } from "../reversal.ts";
import { recordAudit } from "../../audit/audit.ts";

async function findPayment(deps: Pick<ApiDeps, "db">, reference: string) {
  const [payment] = await paymentByReference(deps.db).execute({ reference });
  if (!payment) throw new ApiError(404, "There is no payment with that reference.");
  return payment;
}

async function askGateway(
  gateway: PaymentGateway,
  payment: PaymentAtGateway,
): Promise<GatewayTransaction> {
  let transaction;
  try {
    transaction = await gateway.verify(payment);
  } catch (error) {
    if (!(error instanceof GatewayError)) throw error;
    throw new ApiError(
      502,
      `We could not reach ${gateway.label} to check this payment. Try again in a few minutes.`,
    );
  }
  if (!transaction)
    throw new ApiError(
      409,
      `${gateway.label} has no transaction with this reference: there is nothing to credit.`,
    );
  return transaction;
}

/** What the bursar is told, per crediting outcome, in the words of the gateway asked. */
const outcomeMessages = (gateway: string) =>
  ({
    credited: `${gateway} confirms the payment: it is credited to the student now.`,
    "already-credited": "This payment was already credited; nothing changed.",
    duplicate: `${gateway} confirms the payment, but the fee was already paid: it is in the refund queue.`,
    mismatch: `${gateway} received another amount or currency: not credited, it is in the refund queue.`,
    failed: `${gateway} reports that this payment failed: nothing to credit.`,
    "not-paid": `${gateway} has not received this payment: nothing to credit.`,
    closed: "This payment is being refunded or was taken back: it cannot be credited.",
  }) satisfies Record<CreditOutcome["kind"], string>;

/**
 * The reconciliation's "verify and credit": asks the payment's gateway and applies the answer through the same
 * exactly-once crediting as the student's verify and the webhook (decision 010), then audits it.
 */
export async function verifyAndCredit(deps: ApiDeps, staffId: number, reference: string) {
  const payment = await findPayment(deps, reference);
  const gateway = gatewayOf(deps.gateways, payment);
  const messages = outcomeMessages(gateway.label);
  if (payment.status === "success")
    return { changed: false, message: messages["already-credited"] };
  const transaction = await askGateway(gateway, payment);
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
  return { changed: outcome.kind === "credited", message: messages[outcome.kind] };
}

/** The reconciliation's "record the reversal", once the gateway itself confirms the charge was reversed. */
export async function recordReversal(deps: ApiDeps, staffId: number, reference: string) {
  const payment = await findPayment(deps, reference);
  if (payment.status !== "success")
    throw new ApiError(
      409,
      `This payment is ${payment.status}, not credited: there is no credit to take back.`,
    );
  const gateway = gatewayOf(deps.gateways, payment);
  const transaction = await askGateway(gateway, payment);
  if (transaction.status !== "reversed")
    throw new ApiError(
      409,
      `${gateway.label} says this payment is ${transaction.status}, not reversed: the credit stays.`,
    );
  await takeBackCredit(deps.db, payment, {
    status: "reversed",
    cause: `reversed at ${gateway.label}`,
    staffId,
    at: deps.now(),
  });
  // The bursar is told whose money it was in words, as every money action says what it did.
  const [student] = await deps.db
    .select({
      surname: students.surname,
      othername: students.othername,
      matricNo: students.matricNo,
    })
    .from(students)
    .where(eq(students.id, payment.studentId));
  const whose = student
    ? `${student.surname} ${student.othername}${student.matricNo ? ` (${student.matricNo})` : ""}`
    : "the student";
  return {
    message: `Reversal recorded: the credit of ${formatKobo(payment.amountKobo, payment.currency)} for ${whose}, ${payment.reference}, is taken back, and their fee status is flagged for follow-up.`,
  };
}
