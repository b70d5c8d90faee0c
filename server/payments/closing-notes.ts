import { formatHistoryDate } from "../../common/format/dates.ts";
import { groupedRrr } from "../../common/payments/rrr.ts";
import { FEE_CHANGED_NOTE_START } from "./fee-change.ts";

// What the student reads on a payment the portal closed before it was paid (close-payment.ts),
// kept as the payment's gateway response: each begins with its own words, so the history can tell
// the portal's reason from a gateway's last answer.

const CANCELLED_START = "You cancelled this ";
const SETTLED_ELSEWHERE_START = "Your school fees for ";

/** The student withdrew an RRR themselves. */
export const cancelledByStudentNote = (rrr: string | null, at: Date) =>
  `${CANCELLED_START}${rrr ? `RRR ${groupedRrr(rrr)}` : "RRR"} on ${formatHistoryDate(at)}: it can no longer be paid online or at a bank.`;

/** An RRR left over after the student paid the same fee another way. */
export const settledElsewhereNote = (payment: { level: number; session: string }) =>
  `${SETTLED_ELSEWHERE_START}${payment.level} level, ${payment.session} were paid by another payment, so this one was withdrawn and can no longer be paid.`;

/** Whether an abandoned payment's response is one of the portal's reasons above, or a fee change's. */
export const isPortalClosingNote = (text: string | null): text is string =>
  text !== null &&
  [FEE_CHANGED_NOTE_START, CANCELLED_START, SETTLED_ELSEWHERE_START].some((start) =>
    text.startsWith(start),
  );
