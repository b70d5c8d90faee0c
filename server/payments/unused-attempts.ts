import type { payments } from "../db/schema.ts";
import type { PaymentOption } from "../../common/payments/fee-status.ts";
import { creditRefusal } from "./credit.ts";

type Payment = Pick<
  typeof payments.$inferSelect,
  "id" | "status" | "paymentOption" | "level" | "session"
>;

/** Statuses of a payment with which Paystack has taken no money (a refusal or nothing yet). */
const NO_MONEY_TAKEN = new Set(["pending", "failed"]);

/**
 * Whether `payment` is an attempt that took no money and is no longer needed, because the fee it
 * was for is settled by the student's other payments (`all`, which may include it): crediting it
 * now would be refused as paid twice. This only decides how it is shown and worded. Money that
 * still arrives for it goes through crediting as ever (and is kept as a duplicate to refund).
 */
export function isUnusedAttempt(payment: Payment, all: readonly Payment[]): boolean {
  if (!NO_MONEY_TAKEN.has(payment.status)) return false;
  const credited = all
    .filter((other) => other.id !== payment.id && other.status === "success")
    .filter((other) => other.level === payment.level && other.session === payment.session)
    .map((other) => other.paymentOption);
  const choice = {
    option: payment.paymentOption as PaymentOption,
    level: payment.level,
    session: payment.session,
  };
  return credited.includes(payment.paymentOption) || creditRefusal(choice, credited) !== null;
}
