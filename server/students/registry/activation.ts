import { and, desc, eq } from "drizzle-orm";
import type { ApiDeps } from "../../deps.ts";
import type { Database, Transaction } from "../../db/client.ts";
import { passwordResetTokens, type students } from "../../db/schema.ts";
import { ApiError } from "../../http/errors.ts";
import type { MailMessage } from "../../mail/mailer.ts";
import { issueResetToken } from "../../password/reset-tokens.ts";
import { encodeUid } from "../../password/uidb64.ts";
import { lockStudent } from "../student-lock.ts";
import { formatDeadline } from "../../../common/format/dates.ts";
import type { StaffStudent } from "../../../common/students/registry.ts";

type Student = typeof students.$inferSelect;

/**
 * An activation link lasts three days, not the reset link's 30 minutes: it is sent by the
 * registry, not asked for by the student, who may read mail only when they next have data.
 */
export const ACTIVATION_LINK_HOURS = 72;

const ADDRESS_CHANGED =
  "The student's e-mail address was changed a moment ago, so no link was sent. Open the record again and send the link to the new address.";

export const ACTIVATION_MAIL_SUBJECT = "Activate your student portal account";

/** The activation e-mail; plain text so every mail client shows the link. */
export function activationMail(student: Student & { email: string }, link: string): MailMessage {
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
      'If the link has expired, use "Forgot password" on the sign-in page with this e-mail address.',
      "If the registry sends you another link later, only the newest one works.",
    ].join("\n"),
  };
}

type LastLink = NonNullable<StaffStudent["last_activation_link"]>;

/** The student's newest activation link and whether it still works; null when none was sent. */
export async function lastActivationLink(
  db: Database | Transaction,
  studentId: number,
  now: Date,
): Promise<LastLink | null> {
  const [row] = await db
    .select()
    .from(passwordResetTokens)
    .where(
      and(
        eq(passwordResetTokens.studentId, studentId),
        eq(passwordResetTokens.purpose, "activation"),
      ),
    )
    .orderBy(desc(passwordResetTokens.createdAt), desc(passwordResetTokens.id))
    .limit(1);
  if (!row) return null;
  const state: LastLink["state"] = row.replacedAt
    ? "replaced"
    : row.usedAt
      ? "used"
      : row.expiresAt <= now
        ? "expired"
        : "live";
  return {
    sent_at: row.createdAt.toISOString(),
    sent_to: row.sentTo,
    expires_at: row.expiresAt.toISOString(),
    state,
  };
}

/** Where a link went, as the registry reads it. */
export const sentToWords = (sentTo: string | null) => (sentTo ? `to ${sentTo}` : "shown on screen");

/**
 * Issues a single-use link to the password page (the reset page, worded for a first password)
 * inside `tx`, the transaction that stores its token, and mails it; the student's earlier links
 * stop working, so only the newest can set the first password. A link still working is replaced
 * only when the officer has seen the warning and confirmed (`replaceEarlier`): two officers, or
 * one with an old page, never silently kill a link the student is about to use. A student with
 * no e-mail address gets no mail: the link is answered, for the officer to open with them
 * (decision 156).
 */
export async function issueActivationLink(
  deps: Pick<ApiDeps, "jobs" | "now" | "publicOrigin">,
  tx: Transaction,
  student: Student,
  replaceEarlier: boolean,
): Promise<{ link: string; mailed: boolean }> {
  await lockStudent(tx, student.id);
  const earlier = await lastActivationLink(tx, student.id, deps.now());
  if (earlier?.state === "live" && !replaceEarlier) {
    throw new ApiError(
      409,
      `An activation link sent at ${formatDeadline(earlier.sent_at)} (${sentToWords(earlier.sent_to)}) still works until ${formatDeadline(earlier.expires_at)}. A new link replaces it: the earlier one stops working, and a student who opens it is told to use the newest. Confirm to send a new one.`,
      { fields: { replace_earlier: "Confirm that the earlier link may stop working." } },
    );
  }
  const token = await issueResetToken(tx, student, deps.now(), {
    lifetimeMinutes: ACTIVATION_LINK_HOURS * 60,
    replacesEarlier: true,
    purpose: "activation",
  });
  if (token === null) throw new ApiError(409, ADDRESS_CHANGED);
  const link = new URL(
    `/password/reset/${encodeUid(student.id)}/${token}`,
    deps.publicOrigin,
  ).toString();
  if (student.email === null) return { link, mailed: false };
  await deps.jobs.sendMail(tx, activationMail({ ...student, email: student.email }, link));
  return { link, mailed: true };
}
