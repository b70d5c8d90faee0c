/**
 * What the portal says by SMS, one function per message. Each is one 160-character GSM-7 segment
 * for every value it can be given (server/sms/templates.test.ts walks them): a second segment is
 * paid twice, and a character outside GSM-7 (₦, an em dash, curly quotes) turns the whole message
 * into UCS-2, where a segment holds 70. Nothing personal but the student's own.
 */
import { RESET_CODE_MINUTES } from "../password/reset-codes.ts";

/** Who the messages say they are from, inside the text (the sender id may be a shared short code). */
export const SMS_SIGNATURE = "Student Portal";

/** The code that sets a new password (decision 200). */
export function resetCodeText(code: string): string {
  return `${code} is your ${SMS_SIGNATURE} password code. It works for ${RESET_CODE_MINUTES} minutes. Never share it: staff will never ask for it. Did not ask? Ignore this SMS.`;
}

/** A credited payment, always sent (decision 200): amount in naira as NGN (₦ is not GSM-7). */
export function receiptText(payment: { amountKobo: number; what: string; reference: string }) {
  const naira = (payment.amountKobo / 100).toLocaleString("en-NG", {
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  });
  return `Payment received: NGN ${naira} for ${payment.what}. Ref ${payment.reference}. Your slip is on the portal. ${SMS_SIGNATURE}`;
}

/** The adviser approved a semester's courses. */
export function registrationApprovedText(semester: string, session: string) {
  return `Your ${semester} course registration for ${session} is approved. Print your slip on the portal. ${SMS_SIGNATURE}`;
}

/** A semester came back to the student: returned by the adviser, or an approval withdrawn. */
export function registrationReturnedText(semester: string, session: string) {
  return `Your ${semester} course registration for ${session} was sent back to you. Read why on the portal, change it and submit again. ${SMS_SIGNATURE}`;
}

/** A programme's semester results published (decision 201): the results stay on the portal. */
export function resultsPublishedText(semester: string, session: string) {
  return `Your results for ${semester} ${session} are published. Sign in to the ${SMS_SIGNATURE} to see them.`;
}

/** What a deadline reminder is about (decision 201). */
export type ReminderKind = "school_fee" | "registration";

/**
 * A reminder 3 days or 1 day before a deadline (decision 201). The deadline as the college's
 * notices write it ("30 September 2025"); it is the last day to act.
 */
export function deadlineReminderText(
  kind: ReminderKind,
  session: string,
  deadline: string,
  daysLeft: number,
) {
  const when = daysLeft === 1 ? "tomorrow" : `in ${daysLeft} days`;
  return kind === "school_fee"
    ? `Reminder: the ${session} school fee is due by ${deadline}, ${when}. Pay it on the portal before then. ${SMS_SIGNATURE}`
    : `Reminder: course registration for ${session} closes on ${deadline}, ${when}. Register your courses on the portal. ${SMS_SIGNATURE}`;
}
