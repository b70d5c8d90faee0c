import type { MailMessage } from "../mail/mailer.ts";
import { INVITE_LINK_HOURS } from "./password-links.ts";
import type { StaffRow } from "./staff-sessions.ts";

/** The invitation (or new-password) e-mail; plain text so every mail client shows the link. */
export function staffPasswordMail(member: StaffRow, link: string): MailMessage {
  const invited = member.passwordHash === null;
  return {
    to: member.email,
    subject: invited
      ? "Your staff account on the college portal"
      : "Set a new password for your staff account",
    text: [
      `Dear ${member.name},`,
      "",
      invited
        ? "An administrator has created a staff account for you on the college portal."
        : "An administrator has asked for a new password link for your staff account.",
      "Open this link to choose your password:",
      "",
      link,
      "",
      `The link works once, for ${INVITE_LINK_HOURS} hours. Then sign in at the staff sign-in page with this e-mail address.`,
      "If you did not expect this e-mail, tell the college's ICT unit.",
    ].join("\n"),
  };
}
