import { eq } from "drizzle-orm";
import type { ApiDeps } from "../app.ts";
import { payments, type students } from "../db/schema.ts";
import { ApiError } from "../http/errors.ts";
import { PaystackError } from "../paystack/client.ts";
import { feeRefusal, type FeeChoice } from "../../src/lib/payments/fees.ts";
import type { SchoolFeeAnswer } from "../../src/lib/payments/fee-request.ts";
import { creditedOptions, noFeeMessage, scheduledFeeKobo } from "./fee-schedule.ts";
import { recordPaymentEvent } from "./payment-events.ts";
import { newPaymentReference } from "./reference.ts";

type Student = Pick<typeof students.$inferSelect, "id" | "email" | "level">;

const START_FAILED =
  "We could not start the payment with Paystack. Please try again in a few minutes.";

/** The amount in kobo a student would pay for `choice`, or a 400 saying why they cannot. */
export async function quoteFeeKobo(
  deps: Pick<ApiDeps, "db">,
  student: Pick<Student, "id" | "level">,
  choice: FeeChoice,
) {
  // As for course registration: a level the student has not reached is not theirs to pay
  // (a cheaper level's fee would otherwise settle the session).
  if (choice.level > student.level) {
    throw new ApiError(
      400,
      `You are in ${student.level} level; you cannot pay ${choice.level} level fees.`,
      { fields: { payment_level: `Choose ${student.level} level or below.` } },
    );
  }
  const [amountKobo, paid] = await Promise.all([
    scheduledFeeKobo(deps.db, choice),
    creditedOptions(deps.db, student.id, choice),
  ]);
  if (amountKobo === null) throw new ApiError(400, noFeeMessage(choice));
  const refusal = feeRefusal(choice, paid);
  if (refusal) throw new ApiError(400, refusal);
  return amountKobo;
}

/**
 * Starts paying `choice` through Paystack: a pending payment with a new reference at the
 * scheduled amount, then Paystack's checkout address. A fee already paid answers "success".
 */
export async function startSchoolFeePayment(
  deps: ApiDeps,
  student: Student,
  choice: FeeChoice,
): Promise<SchoolFeeAnswer> {
  const paid = await creditedOptions(deps.db, student.id, choice);
  if (paid.includes(choice.option)) {
    return { status: "success", message: "Payment already made" };
  }
  const amountKobo = await quoteFeeKobo(deps, student, choice);
  const reference = newPaymentReference(deps.now());
  const [payment] = await deps.db
    .insert(payments)
    .values({
      reference,
      studentId: student.id,
      paymentOption: choice.option,
      level: choice.level,
      session: choice.session,
      amountKobo,
      generatedAt: deps.now(),
    })
    .returning({ id: payments.id });
  const paymentId = payment!.id;
  try {
    const { authorizationUrl } = await deps.paystack.initialize({
      reference,
      amountKobo,
      email: student.email,
      callbackUrl: `${deps.publicOrigin}/paystack/verify`,
      metadata: {
        student_id: student.id,
        payment_option: choice.option,
        payment_level: choice.level,
        payment_session: choice.session,
      },
    });
    await deps.db.transaction(async (tx) => {
      await tx.update(payments).set({ authorizationUrl }).where(eq(payments.id, paymentId));
      await recordPaymentEvent(tx, paymentId, "initialised", deps.now(), {
        amount_kobo: amountKobo,
        option: choice.option,
        level: choice.level,
        session: choice.session,
      });
    });
    return {
      status: "pending",
      message: "Payment initialized",
      authorization_url: authorizationUrl,
      reference,
    };
  } catch (error) {
    if (!(error instanceof PaystackError)) throw error;
    deps.logger.error("paystack initialize failed", { reference, error: error.message });
    await deps.db.transaction(async (tx) => {
      await tx
        .update(payments)
        .set({ status: "failed", gatewayResponse: "Paystack did not start the payment" })
        .where(eq(payments.id, paymentId));
      await recordPaymentEvent(tx, paymentId, "initialise-failed", deps.now(), {
        error: error.message,
      });
    });
    throw new ApiError(502, START_FAILED);
  }
}
