import { and, eq } from "drizzle-orm";
import { paystackEmail } from "./payer-address.ts";
import type { ApiDeps } from "../deps.ts";
import { payments } from "../db/schema.ts";
import { ApiError } from "../http/errors.ts";
import { GatewayError, gatewayForNewPayments } from "./gateway.ts";
import type { OfflineChannelChoice } from "../../common/payments/channels.ts";
import type { FeeChoice } from "../../common/payments/fees.ts";
import type {
  OfflinePayment,
  OfflinePaymentAnswer,
} from "../../common/payments/offline-payment.ts";
import { toPaymentRecord } from "./payment-info.ts";
import { recordPaymentEvent } from "./payment-events.ts";
import {
  openPendingPayment,
  paymentMetadata,
  gatewayDidNotStart,
  type Student,
} from "./school-fee.ts";

/**
 * How long a transfer account stays open: long enough to walk to a bank branch or borrow a
 * phone with a bank app, short enough that an old account number is not paid by mistake.
 */
export const TRANSFER_ACCOUNT_LIFETIME_MS = 2 * 60 * 60_000;

/**
 * Starts paying `choice` by bank transfer or USSD: a pending payment, then a gateway charge on
 * that channel whose account or code is kept with the payment (the page shows it again on
 * reload). Crediting is the card's: the signed webhook, verify, or the reconciler.
 */
export async function startOfflinePayment(
  deps: ApiDeps,
  student: Student,
  choice: FeeChoice,
  channel: OfflineChannelChoice,
): Promise<OfflinePaymentAnswer> {
  const gateway = gatewayForNewPayments(deps.gateways);
  const opened = await openPendingPayment(deps, student, choice, {
    gateway,
    channel: channel.kind,
  });
  if (opened === "already-paid") return { status: "success", message: "Payment already made" };
  const { reference, amountKobo, paymentId } = opened;
  try {
    const instructions = await gateway.startOfflineCharge({
      reference,
      amountKobo,
      email: paystackEmail(student),
      metadata: paymentMetadata(student, choice),
      channel,
    });
    await deps.db.transaction(async (tx) => {
      await tx
        .update(payments)
        .set({ payInstructions: instructions })
        .where(eq(payments.id, paymentId));
      await recordPaymentEvent(tx, paymentId, "initialised", deps.now(), {
        amount_kobo: amountKobo,
        option: choice.option,
        level: choice.level,
        session: choice.session,
        channel: channel.kind,
      });
    });
    return { status: "pending", message: "Charge attempted", reference, instructions };
  } catch (error) {
    if (!(error instanceof GatewayError)) throw error;
    return gatewayDidNotStart(deps, gateway, opened, error);
  }
}

/** One of the student's own payments with its pay instructions; another's is as unknown as none. */
export async function loadOwnPayment(
  deps: Pick<ApiDeps, "db">,
  studentId: number,
  reference: string,
): Promise<OfflinePayment> {
  const [row] = await deps.db
    .select()
    .from(payments)
    .where(and(eq(payments.reference, reference), eq(payments.studentId, studentId)));
  if (!row) {
    throw new ApiError(
      404,
      "We have no payment with that reference. Check it, or start a new payment from the Payment page.",
    );
  }
  return { payment: toPaymentRecord(row), instructions: row.payInstructions ?? null };
}
