import type { MailMessage } from "../mail/mailer.ts";

/** The e-mail that brings the help desk's reply to the student; the full thread is on /complaint. */
export function replyMail(
  complaint: { ticket: string; subject: string },
  to: string,
  reply: string,
  publicOrigin: string,
): MailMessage {
  // A subject is one header line whatever the student typed.
  const subject = complaint.subject.replace(/\s+/g, " ");
  return {
    to,
    subject: `Reply to your complaint ${complaint.ticket}: ${subject}`,
    text: [
      `The college help desk has replied to your complaint ${complaint.ticket} ("${subject}").`,
      "",
      reply,
      "",
      `Read every reply at ${publicOrigin}/complaint`,
      `To add something, send a new complaint there and quote ${complaint.ticket}.`,
    ].join("\n"),
  };
}
