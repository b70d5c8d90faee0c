import type { ApiDeps } from "../../app.ts";
import type { Transaction } from "../../db/client.ts";
import type { students } from "../../db/schema.ts";
import { ApiError } from "../../http/errors.ts";
import type { MailMessage } from "../../mail/mailer.ts";
import { issueResetToken } from "../../password/reset-tokens.ts";
import { encodeUid } from "../../password/uidb64.ts";

type Student = typeof students.$inferSelect;

/**
 * An activation link lasts three days, not the reset link's 30 minutes: it is sent by the
 * registry, not asked for by the student, who may read mail only when they next have data.
 */
export const ACTIVATION_LINK_HOURS = 72;

const ADDRESS_CHANGED = "The student's e-mail address was changed a moment ago, so no link was sent. Open the record again and send the link to the new address.";

export const ACTIVATION_MAIL_SUBJECT = "Activate your student portal account";

/** The activation e-mail; plain text so every mail client shows the link. */
export function activationMail(student: Student, link: string): MailMessage {
  return {
    to: student.email,
    subject: ACTIVATION_MAIL_SUBJECT,
    text: [
      `Dear ${student.othername},`,
      "",
      "The college registry has created your account on the student portal.",
      "Open this link to choose your password:",
      "",
      link,
      "",
      `The link works once, for ${ACTIVATION_LINK_HOURS} hours. Then sign in with your phone number (${student.phone}) and that password.`,
      "If the link has expired, use \"Forgot password\" on the sign-in page with this e-mail address.",
    ].join("\n"),
  };
}

/**
 * Queues the mail of a single-use link to the password page (the reset page, worded for a first
 * password) inside `tx`, the transaction that stores its token. The student's earlier links stop
 * working, so only the newest mail can set the first password.
 */
export async function queueActivationLink(deps: Pick<ApiDeps, "jobs" | "now" | "publicOrigin">, tx: Transaction, student: Student) {
  const token = await issueResetToken(tx, student, deps.now(), { lifetimeMinutes: ACTIVATION_LINK_HOURS * 60, replacesEarlier: true });
  if (token === null) throw new ApiError(409, ADDRESS_CHANGED);
  const link = new URL(`/password/reset/${encodeUid(student.id)}/${token}`, deps.publicOrigin);
  await deps.jobs.sendMail(tx, activationMail(student, link.toString()));
}
