import type { MailMessage } from "../../mail/mailer.ts";

/** Tells the student their approved semester is open again, why, and where to change it. */
export function reopenedMail(
  to: { email: string; othername: string },
  what: { semester: string; session: string; by: string; reason: string },
  origin: string,
): MailMessage {
  return {
    to: to.email,
    subject: `Your ${what.semester} course registration for ${what.session} was reopened`,
    text: [
      `Dear ${to.othername},`,
      "",
      `${what.by} has reopened your approved ${what.semester} course registration for ${what.session}, with this reason:`,
      "",
      what.reason,
      "",
      `It is no longer approved. Change your courses if the reason asks you to, while registration is open, at ${new URL("/course-reg", origin)}; your course adviser then reviews it again.`,
    ].join("\n"),
  };
}
