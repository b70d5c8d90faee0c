/**
 * What the USSD menu says by SMS, in the menu's language (server/ussd/languages/). One GSM-7
 * segment each at their longest values in every language (sms-texts.test.ts), as every template
 * in server/sms/templates.ts is.
 */
import { formatCollegeTime, formatDeadline } from "../../common/format/dates.ts";
import { formatAmount } from "../../common/format/money.ts";
import { groupedRrr } from "../../common/payments/rrr.ts";
import type { PayInstructions } from "../../common/payments/offline-payment.ts";
import type { UssdLanguage } from "../../common/ussd/ussd-pin.ts";
import { say } from "./languages/index.ts";

/** Three wrong PINs: the student learns of it, and what to do if it was not them. */
export function ussdLockedText(language: UssdLanguage, until: Date) {
  return say(language, "sms_locked", { time: formatCollegeTime(until) });
}

const naira = (kobo: number) => `NGN ${formatAmount(kobo / 100)}`;

/** How to pay a fee the student chose in the menu: the account to transfer to, or the RRR. */
export function payDetailsText(
  language: UssdLanguage,
  payment: { amountKobo: number; reference: string },
  instructions: Exclude<PayInstructions, { channel: "ussd" }>,
) {
  const paying = { amount: naira(payment.amountKobo), reference: payment.reference };
  if (instructions.channel === "remita")
    return say(language, "sms_pay_rrr", { ...paying, rrr: groupedRrr(instructions.rrr) });
  return say(language, "sms_pay_transfer", {
    ...paying,
    account: instructions.account_number,
    bank: instructions.bank_name.slice(0, 24),
    deadline: formatDeadline(instructions.expires_at),
  });
}
