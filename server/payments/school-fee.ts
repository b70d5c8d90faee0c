import { eq, sql } from "drizzle-orm";
import { paystackEmail } from "./payer-address.ts";
import type { ApiDeps } from "../deps.ts";
import { placeholderValue, preparedQuery } from "../db/prepared.ts";
import type { Database } from "../db/client.ts";
import { paymentEvents, payments, type students } from "../db/schema.ts";
import { ApiError } from "../http/errors.ts";
import { GatewayError, type PaymentGateway } from "./gateway.ts";
import { gatewayForNewPayment, noUsableGateway, usableGateways } from "./gateway-choice.ts";
import { feeRefusal, type FeeChoice } from "../../common/payments/fees.ts";
import type { SchoolFeeAnswer } from "../../common/payments/fee-request.ts";
import type { OfflineChannelChoice, PaymentChannel } from "../../common/payments/channels.ts";
import { noFeeMessage, quoteReads } from "./fee-schedule.ts";
import { recordPaymentEvent, type PaymentEventKind } from "./payment-events.ts";
import type { StudentPlacement } from "../students/student-record.ts";
import { newPaymentReference } from "./reference.ts";

export type Student = Pick<
  typeof students.$inferSelect,
  "id" | "email" | "level" | "programmeId" | "studyMode"
> & {
  placement: Pick<StudentPlacement, "currentSession">;
};

const startFailed = (gateway: PaymentGateway) =>
  `We could not start the payment with ${gateway.label}. Please try again in a few minutes.`;

type QuoteDeps = Pick<ApiDeps, "db" | "now" | "offeredGateways">;

/**
 * The fee (its id and amount in kobo) a student would pay for `choice`, with the gateways they
 * may pay it through, or a 400 saying why they cannot.
 */
export async function quoteFee(
  deps: QuoteDeps,
  student: Omit<Student, "email">,
  choice: FeeChoice,
) {
  refuseLevelNotTheirs(student, choice);
  const fee = acceptQuote(deps, choice, await readQuote(deps, student, choice));
  return { ...fee, gateways: usableGateways(deps.offeredGateways, fee.allowedGateways) };
}

/**
 * As for course registration, a level the student has not reached is not theirs to pay. In the
 * current session only their own level is: a lower level's fee (often cheaper) paid by mistake
 * would be money the bursary must refund, and would not settle this session's fees. Earlier
 * sessions take any level up to theirs, for fees still owed from a year below.
 */
function refuseLevelNotTheirs(student: Pick<Student, "level" | "placement">, choice: FeeChoice) {
  if (choice.level > student.level) {
    throw new ApiError(
      400,
      `You are in ${student.level} level; you cannot pay ${choice.level} level fees.`,
      { fields: { payment_level: `Choose ${student.level} level or below.` } },
    );
  }
  if (choice.level < student.level && choice.session === student.placement.currentSession) {
    throw new ApiError(
      400,
      `You are in ${student.level} level in ${choice.session}; this session's fees are paid at ${student.level} level.`,
      { fields: { payment_level: `Choose ${student.level} level for ${choice.session}.` } },
    );
  }
}

/** What a quote is made of, read together: the fee in force, what is already credited, the late-fee rule. */
function readQuote(
  deps: Pick<ApiDeps, "db" | "now">,
  student: Omit<Student, "email">,
  choice: FeeChoice,
) {
  return quoteReads(deps.db, student.id, choice, deps.now());
}

function acceptQuote(
  deps: Pick<ApiDeps, "offeredGateways">,
  choice: FeeChoice,
  { fee, paid, lateFee }: Awaited<ReturnType<typeof readQuote>>,
) {
  if (fee === null) throw new ApiError(400, noFeeMessage(choice));
  const refusal =
    feeRefusal(choice, paid) ??
    lateFee ??
    noUsableGateway(deps.offeredGateways, fee.allowedGateways);
  if (refusal) throw new ApiError(400, refusal);
  return fee;
}

/**
 * The first steps of every way to pay `choice`: "already-paid" when that fee is credited (the
 * page says 'Payment already made'); otherwise a pending payment at the scheduled amount under a
 * new reference, with the gateway that takes `channel` (or a 400 from the quote saying why the
 * student cannot pay it, or from the gateway choice saying which ways this fee takes).
 */
export async function openPendingPayment(
  deps: Pick<ApiDeps, "db" | "now" | "gateways" | "offeredGateways">,
  student: Student,
  choice: FeeChoice,
  channel: PaymentChannel,
) {
  // One read of what is credited serves both the "already paid" answer and the quote's rules.
  const quote = await readQuote(deps, student, choice);
  if (quote.paid.includes(choice.option)) return "already-paid" as const;
  refuseLevelNotTheirs(student, choice);
  const { id: feeId, amountKobo, allowedGateways } = acceptQuote(deps, choice, quote);
  // Refused before anything is written: a way this fee does not take creates no payment.
  const gateway = gatewayForNewPayment(deps, channel, allowedGateways);
  const reference = newPaymentReference(deps.now());
  const [payment] = await insertPendingPayment(deps.db).execute({
    reference,
    studentId: student.id,
    paymentOption: choice.option,
    level: choice.level,
    session: choice.session,
    feeId,
    amountKobo,
    gateway: gateway.name,
    // A card's channel is the gateway's to say once paid; transfer, USSD and an RRR are known
    // from the start.
    channel: channel === "card" ? null : channel,
    generatedAt: deps.now(),
  });
  return { reference, amountKobo, feeId, paymentId: payment!.id, gateway };
}

/** What the gateway keeps with each transaction, so its dashboard shows whose fee it is. */
export function paymentMetadata(student: Student, choice: FeeChoice) {
  return {
    student_id: student.id,
    payment_option: choice.option,
    payment_level: choice.level,
    payment_session: choice.session,
  };
}

const insertPendingPayment = preparedQuery((db) =>
  db
    .insert(payments)
    .values({
      reference: sql.placeholder("reference"),
      studentId: sql.placeholder("studentId"),
      paymentOption: sql.placeholder("paymentOption"),
      level: sql.placeholder("level"),
      session: sql.placeholder("session"),
      feeId: sql.placeholder("feeId"),
      amountKobo: sql.placeholder("amountKobo"),
      gateway: sql.placeholder("gateway"),
      channel: sql.placeholder("channel"),
      generatedAt: sql.placeholder("generatedAt"),
    })
    .returning({ id: payments.id })
    .prepare("insert_pending_payment"),
);

/**
 * The checkout's address kept on the payment, with the payment's "initialised" event: one
 * statement, as atomic as a transaction (the history never shows a checkout that was not kept),
 * in one round trip instead of four (BEGIN, the two, COMMIT).
 */
async function recordCheckoutOpened(
  db: Database,
  paymentId: number,
  authorizationUrl: string,
  at: Date,
  detail: Record<string, unknown>,
) {
  await db.execute(sql`
    with opened as (
      update ${payments} set authorization_url = ${authorizationUrl}
      where ${payments.id} = ${paymentId}
      returning ${payments.id}
    )
    insert into ${paymentEvents} (payment_id, kind, at, detail)
    select id, ${"initialised" satisfies PaymentEventKind}, ${at.toISOString()}::timestamptz, ${JSON.stringify(detail)}::jsonb
    from opened`);
}

/** Records that the gateway did not take the payment we opened (with its event), and answers the student's 502. */
export async function gatewayDidNotStart(
  deps: Pick<ApiDeps, "db" | "logger" | "now">,
  gateway: PaymentGateway,
  opened: { paymentId: number; reference: string },
  error: GatewayError,
): Promise<never> {
  const { paymentId, reference } = opened;
  deps.logger.error(`${gateway.name} did not start a payment`, { reference, error: error.message });
  await deps.db.transaction(async (tx) => {
    await tx
      .update(payments)
      .set({ status: "failed", gatewayResponse: `${gateway.label} did not start the payment` })
      .where(eq(payments.id, paymentId));
    await recordPaymentEvent(tx, paymentId, "initialise-failed", deps.now(), {
      error: error.message,
    });
  });
  throw new ApiError(502, startFailed(gateway));
}

/** The page that verifies a payment when its gateway sends the student back (Paystack's: /paystack/verify). */
const verifyPagePath = (gateway: PaymentGateway) => `/${gateway.name}/verify`;

/**
 * Starts paying `choice` by card on the gateway's checkout page: a pending payment, then the
 * checkout's address. A fee already paid answers "success".
 */
export async function startSchoolFeePayment(
  deps: ApiDeps,
  student: Student,
  choice: FeeChoice,
): Promise<SchoolFeeAnswer> {
  const opened = await openPendingPayment(deps, student, choice, "card");
  if (opened === "already-paid") return { status: "success", message: "Payment already made" };
  const { reference, amountKobo, paymentId, gateway } = opened;
  try {
    const { authorizationUrl } = await gateway.startCheckout({
      reference,
      amountKobo,
      email: paystackEmail(student),
      callbackUrl: `${deps.publicOrigin}${verifyPagePath(gateway)}`,
      metadata: paymentMetadata(student, choice),
    });
    await recordCheckoutOpened(deps.db, paymentId, authorizationUrl, deps.now(), {
      amount_kobo: amountKobo,
      option: choice.option,
      level: choice.level,
      session: choice.session,
    });
    return {
      status: "pending",
      message: "Payment initialized",
      authorization_url: authorizationUrl,
      reference,
    };
  } catch (error) {
    if (!(error instanceof GatewayError)) throw error;
    return gatewayDidNotStart(deps, gateway, opened, error);
  }
}
