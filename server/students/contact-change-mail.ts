import type { MailMessage } from "../mail/mailer.ts";
import type { students } from "../db/schema.ts";
import { formatSlipDate } from "../../common/format/dates.ts";

type Student = typeof students.$inferSelect;

/** A new phone number and/or e-mail address; at least one is set. */
export type ContactChanges = { phone?: string; email?: string };

/** How long a confirmation link works after it is sent. */
export const CONFIRM_LINK_MINUTES = 60;

/** "phone number", "e-mail address" or both, as the student's sentences name them. */
export function describeChanges(changes: ContactChanges) {
  const names = [];
  if (changes.phone) names.push("phone number");
  if (changes.email) names.push("e-mail address");
  return names.join(" and ");
}

/**
 * The link that finishes a change. It may go to an address the student typed, which may not be
 * theirs, so it names no one and nothing of the account.
 */
export function confirmChangeMail(to: string, changes: ContactChanges, link: string): MailMessage {
  return {
    to,
    subject: "Confirm the change to your student portal account",
    text: [
      "Hello,",
      "",
      `A student signed in to the student portal asked to change the ${describeChanges(changes)} of their account${changes.email ? " to this address" : ""}.`,
      "If that was you, open this link while signed in to the portal to finish the change:",
      "",
      link,
      "",
      `The link works once, for ${CONFIRM_LINK_MINUTES} minutes. Nothing changes until it is opened.`,
      "If you did not ask for it, ignore this e-mail.",
    ].join("\n"),
  };
}

type Notice = {
  to: string;
  before: Student;
  after: Student;
  at: Date;
  publicOrigin: string;
  supportEmail: string;
};

/** Tells an address of the account (old or new) that the sign-in name or recovery address changed. */
export function contactChangedNotice({
  to,
  before,
  after,
  at,
  publicOrigin,
  supportEmail,
}: Notice): MailMessage {
  const lines = [];
  if (before.phone !== after.phone) lines.push(`Phone number: ${before.phone} → ${after.phone}`);
  if (before.email !== after.email) lines.push(`E-mail address: ${before.email} → ${after.email}`);
  return {
    to,
    subject: "Your student portal phone number or e-mail was changed",
    text: [
      `Dear ${after.othername},`,
      "",
      `On ${formatSlipDate(at)} (Nigerian time) your student portal account was changed:`,
      "",
      ...lines,
      "",
      "Every other device signed in to your account has been signed out.",
      "",
      "If you did not make this change, someone else may be using your account. Reset your password at",
      new URL("/reset-password", publicOrigin).toString(),
      `and write to ${supportEmail} at once so the college can restore your account.`,
    ].join("\n"),
  };
}
