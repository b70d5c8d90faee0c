/**
 * What the USSD menu says by SMS. One GSM-7 segment each at their longest values
 * (sms-texts.test.ts), as every template in server/sms/templates.ts is.
 */
import { formatCollegeTime, formatDeadline } from "../../common/format/dates.ts";
import { formatAmount } from "../../common/format/money.ts";
import { groupedRrr } from "../../common/payments/rrr.ts";
import type { PayInstructions } from "../../common/payments/offline-payment.ts";
import { SMS_SIGNATURE } from "../sms/templates.ts";

/** Three wrong PINs: the student learns of it, and what to do if it was not them. */
export function ussdLockedText(until: Date) {
  return `3 wrong USSD PINs were entered for your ${SMS_SIGNATURE} account. The USSD menu is locked until ${formatCollegeTime(until)}. Not you? Change your USSD PIN on the portal.`;
}

const naira = (kobo: number) => `NGN ${formatAmount(kobo / 100)}`;

/** How to pay a fee the student chose in the menu: the account to transfer to, or the RRR. */
export function payDetailsText(
  payment: { amountKobo: number; reference: string },
  instructions: Exclude<PayInstructions, { channel: "ussd" }>,
) {
  if (instructions.channel === "remita")
    return `Pay ${naira(payment.amountKobo)} with Remita RRR ${groupedRrr(instructions.rrr)} online or at any bank. Ref ${payment.reference}. ${SMS_SIGNATURE}`;
  return `Pay ${naira(payment.amountKobo)} by transfer to ${instructions.account_number} ${instructions.bank_name.slice(0, 24)} before ${formatDeadline(instructions.expires_at)}. Ref ${payment.reference}. ${SMS_SIGNATURE}`;
}
