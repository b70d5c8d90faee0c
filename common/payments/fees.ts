import { paymentCompleteFrom, type PaymentOption } from "./fee-status.ts";

/** Levels a fee can be paid for (spec section 9). */
export const PAYMENT_LEVELS = [100, 200, 300, 400, 500] as const;

/** What a student is paying for: one option at one level in one session. */
export type FeeChoice = { option: PaymentOption; level: number; session: string };

/**
 * Why a student may not pay `choice`, given the options already credited for that level and
 * session; null when they may. The messages tell the student what to do instead.
 */
export function feeRefusal(choice: FeeChoice, paidOptions: readonly string[]): string | null {
  const paid = new Set(paidOptions);
  const where = `${choice.level} level, ${choice.session}`;
  if (paymentCompleteFrom(paidOptions) === "full") {
    return `Your school fees for ${where} are fully paid. There is nothing more to pay for that level and session.`;
  }
  if (choice.option === "second_installment" && !paid.has("part")) {
    return `Pay the first installment (Part Payment) for ${where} before the second installment. If you have just paid it, press Requery on the Payments Management page.`;
  }
  if (choice.option === "full" && paid.has("part")) {
    return `You have paid the first installment for ${where}. Choose Second Installment to pay the rest.`;
  }
  return null;
}
