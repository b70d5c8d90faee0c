import type { MailMessage } from "../mail/mailer.ts";
import type { complaints, students } from "../db/schema.ts";

type Complaint = typeof complaints.$inferSelect;
type Student = typeof students.$inferSelect;

/** The copy of a complaint the support desk receives; replying reaches the student. */
export function supportCopy(
  complaint: Complaint,
  student: Student,
  supportEmail: string,
): MailMessage {
  // A subject is one header line whatever the student typed.
  const subject = complaint.subject.replace(/\s+/g, " ");
  return {
    to: supportEmail,
    replyTo: student.email ?? undefined,
    subject: `Complaint ${complaint.ticket}: ${subject}`,
    text: [
      `A student sent a complaint through the portal on ${complaint.createdAt.toISOString()}.`,
      "",
      `Name: ${complaint.name}`,
      `E-mail: ${complaint.email}`,
      `Phone: ${student.phone}`,
      `Matric number: ${student.matricNo ?? "not yet given"}`,
      `Application number: ${student.applicationNo}`,
      "",
      `Subject: ${subject}`,
      "",
      complaint.message,
      "",
      "Reply to this e-mail to answer the student.",
    ].join("\n"),
  };
}
