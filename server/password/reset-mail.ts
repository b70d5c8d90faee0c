import type { MailMessage } from "../mail/mailer.ts";
import type { students } from "../db/schema.ts";
import { RESET_LINK_MINUTES } from "./reset-tokens.ts";

type Student = typeof students.$inferSelect;

export const RESET_MAIL_SUBJECT = "Reset your student portal password";

/** The e-mail that carries a reset link; plain text, so every mail client shows the link. */
export function resetMail(student: Student, link: string): MailMessage {
  return {
    // Only a student found by their address is sent a reset link.
    to: student.email!,
    subject: RESET_MAIL_SUBJECT,
    text: [
      `Dear ${student.othername},`,
      "",
      "Someone (we hope you) asked to reset the password of your student portal account.",
      "Open this link to choose a new password:",
      "",
      link,
      "",
      `The link works once, for ${RESET_LINK_MINUTES} minutes.`,
      "If you did not ask for it, ignore this e-mail: your password stays as it is.",
    ].join("\n"),
  };
}
