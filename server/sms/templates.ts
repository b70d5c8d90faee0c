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
