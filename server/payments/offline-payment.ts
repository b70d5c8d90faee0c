import { and, eq } from "drizzle-orm";
import { paystackEmail } from "./payer-address.ts";
import type { ApiDeps } from "../deps.ts";
import { payments, type students } from "../db/schema.ts";
import { ApiError } from "../http/errors.ts";
import { remitaLineItemsFor } from "./fees/fee-split.ts";
import { GatewayError, type OfflineChargeInput } from "./gateway.ts";
import { unhandledChannel, type OfflineChannelChoice } from "../../common/payments/channels.ts";
import type { FeeChoice } from "../../common/payments/fees.ts";
import type {
  OfflinePayment,
  OfflinePaymentAnswer,
  PayInstructions,
} from "../../common/payments/offline-payment.ts";
import { toPaymentRecord } from "./payment-info.ts";
import { paymentNote } from "./payment-notes.ts";
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
 * Starts paying `choice` by bank transfer, USSD or a Remita RRR: a pending payment, then a
 * gateway charge on that channel whose account, code or RRR is kept with the payment (the page
 * shows it again on reload; an RRR is also the gateway's reference for it). Crediting is the
 * card's: the gateway's notification, verify, or the reconciler.
 */
export async function startOfflinePayment(
  deps: ApiDeps,
  student: Student &
    Pick<typeof students.$inferSelect, "surname" | "othername" | "phone" | "matricNo">,
  choice: FeeChoice,
  channel: OfflineChannelChoice,
): Promise<OfflinePaymentAnswer> {
  const opened = await openPendingPayment(deps, student, choice, channel.kind);
  if (opened === "already-paid") return { status: "success", message: "Payment already made" };
  const { reference, amountKobo, feeId, paymentId, gateway } = opened;
  const charge: OfflineChargeInput = {
    reference,
    amountKobo,
    email: paystackEmail(student),
    metadata: paymentMetadata(student, choice),
    channel,
    payer: {
      name: `${student.surname} ${student.othername}`.trim(),
      phone: student.phone,
      matricNo: student.matricNo,
    },
    serviceKind: "school_fee",
    // The bursary's split of the fee between accounts (decision 190) goes to Remita as line
    // items; with none, the whole amount goes to the merchant's account. What is sent is kept
    // with the instructions, for the printed invoice.
    lineItems:
      channel.kind === "remita"
        ? await remitaLineItemsFor(deps.db, { feeId, paymentOption: choice.option, amountKobo })
        : undefined,
  };
  try {
    const instructions = keptInstructions(await gateway.startOfflineCharge(charge), charge);
    await deps.db.transaction(async (tx) => {
      await tx
        .update(payments)
        .set({ payInstructions: instructions, gatewayReference: gatewayReferenceOf(instructions) })
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

/** The instructions as kept with the payment: an RRR's with the split it was made with, if any. */
function keptInstructions(
  instructions: PayInstructions,
  charge: OfflineChargeInput,
): PayInstructions {
  if (instructions.channel !== "remita" || !charge.lineItems?.length) return instructions;
  return {
    ...instructions,
    line_items: charge.lineItems.map((item) => ({
      beneficiary_name: item.beneficiaryName,
      amount_kobo: item.amountKobo,
    })),
  };
}

/** The gateway's own reference a charge answered with: an RRR; transfer and USSD have none of their own. */
function gatewayReferenceOf(instructions: PayInstructions): string | null {
  switch (instructions.channel) {
    case "remita":
      return instructions.rrr;
    case "bank_transfer":
    case "ussd":
      return null;
    default:
      return unhandledChannel(instructions);
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
  // Refunds are for paid payments, which this card does not explain: only a closing note is read.
  return {
    payment: { ...toPaymentRecord(row), note: paymentNote(row, undefined) },
    instructions: row.payInstructions ?? null,
  };
}
