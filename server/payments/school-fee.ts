import { eq } from "drizzle-orm";
import type { ApiDeps } from "../app.ts";
import { payments, type students } from "../db/schema.ts";
import { ApiError } from "../http/errors.ts";
import { PaystackError } from "../paystack/client.ts";
import { feeRefusal, type FeeChoice } from "../../src/lib/payments/fees.ts";
import type { SchoolFeeAnswer } from "../../src/lib/payments/fee-request.ts";
import { creditedOptions, lateFeeProblem, noFeeMessage, scheduledFee } from "./fee-schedule.ts";
import { newPaymentReference } from "./reference.ts";

type Student = Pick<typeof students.$inferSelect, "id" | "email" | "level" | "programmeId" | "studyMode">;

const START_FAILED =
  "We could not start the payment with Paystack. Please try again in a few minutes.";

/** The fee (its id and amount in kobo) a student would pay for `choice`, or a 400 saying why they cannot. */
export async function quoteFee(
  deps: Pick<ApiDeps, "db" | "now">,
  student: Omit<Student, "email">,
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
  const [fee, paid, lateFee] = await Promise.all([
    scheduledFee(deps.db, choice, student),
    creditedOptions(deps.db, student.id, choice),
    lateFeeProblem(deps.db, choice, deps.now()),
  ]);
  if (fee === null) throw new ApiError(400, noFeeMessage(choice));
  const refusal = feeRefusal(choice, paid) ?? lateFee;
  if (refusal) throw new ApiError(400, refusal);
  return fee;
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
  const { id: feeId, amountKobo } = await quoteFee(deps, student, choice);
  const reference = newPaymentReference(deps.now());
  await deps.db.insert(payments).values({
    reference,
    studentId: student.id,
    paymentOption: choice.option,
    level: choice.level,
    session: choice.session,
    feeId,
    amountKobo,
    generatedAt: deps.now(),
  });
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
    await deps.db
      .update(payments)
      .set({ authorizationUrl })
      .where(eq(payments.reference, reference));
    return {
      status: "pending",
      message: "Payment initialized",
      authorization_url: authorizationUrl,
      reference,
    };
  } catch (error) {
    if (!(error instanceof PaystackError)) throw error;
    deps.logger.error("paystack initialize failed", { reference, error: error.message });
    await deps.db
      .update(payments)
      .set({ status: "failed", gatewayResponse: "Paystack did not start the payment" })
      .where(eq(payments.reference, reference));
    throw new ApiError(502, START_FAILED);
  }
}
