import { createHash, randomBytes } from "node:crypto";
import { and, eq, isNull, ne, sql } from "drizzle-orm";
import type { ApiDeps } from "../deps.ts";
import type { Transaction } from "../db/client.ts";
import { accountChanges, contactChangeRequests, students } from "../db/schema.ts";
import { isUniqueViolation } from "../db/unique-violation.ts";
import { ApiError } from "../http/errors.ts";
import { endOtherSessions, type SignedInStudent } from "../auth/sessions.ts";
import { cancelUnusedResetLinks } from "../password/reset-tokens.ts";
import { cancelUnusedResetCodes } from "../password/reset-codes.ts";
import { assertUnlocked } from "./biodata-lock.ts";
import {
  CONFIRM_LINK_MINUTES,
  confirmChangeMail,
  contactChangedNotice,
  describeChanges,
  type ContactChanges,
} from "./contact-change-mail.ts";

type Student = typeof students.$inferSelect;
type Deps = Pick<ApiDeps, "db" | "now" | "jobs" | "publicOrigin" | "supportEmail">;

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

const LINK_NOT_VALID =
  "This confirmation link is not valid: it may have been used, have expired, have been replaced by a newer one or belong to another account. Change your phone number or e-mail on the Update Biodata page again.";
const PHONE_TAKEN =
  "That phone number is already used by another student's account, so it cannot be yours as well. Nothing was changed.";
const TAKEN_JUST_NOW =
  "That phone number or e-mail address was taken by another student's account a moment ago. Nothing was changed.";
const EMAIL_TAKEN =
  "That e-mail address is already used by another student's account, so it cannot be yours as well. Nothing was changed.";

/** The sent phone and e-mail that differ from the stored ones, or null when neither does. */
export function contactChangesOf(student: Student, sent: ContactChanges): ContactChanges | null {
  const changes: ContactChanges = {};
  if (sent.phone && sent.phone !== student.phone) changes.phone = sent.phone;
  if (sent.email && sent.email !== student.email?.toLowerCase()) changes.email = sent.email;
  return changes.phone || changes.email ? changes : null;
}

/**
 * Keeps the change waiting and queues the mail of its link in the same transaction: to the new
 * e-mail address when there is one (so the address is proven), otherwise to the current one.
 * Whether the phone or address belongs to someone else is not looked at here, so the answer
 * cannot tell (decision 056). A newer request replaces an older one. Returns the sentence for
 * the student.
 */
export async function requestContactChange(deps: Deps, student: Student, changes: ContactChanges) {
  const token = randomBytes(32).toString("base64url");
  const now = deps.now();
  const sentTo = changes.email ?? student.email;
  // A student with no e-mail address on record (decision 156) has nowhere to confirm a new phone.
  if (sentTo === null) {
    throw new ApiError(
      409,
      "Your record has no e-mail address to confirm a new phone number with. Add your e-mail address in the same change, or ask the registry to change your phone number.",
    );
  }
  const link = new URL(`/biodata/confirm/${token}`, deps.publicOrigin).toString();
  await deps.db.transaction(async (tx) => {
    await tx
      .delete(contactChangeRequests)
      .where(
        and(eq(contactChangeRequests.studentId, student.id), isNull(contactChangeRequests.usedAt)),
      );
    await tx.insert(contactChangeRequests).values({
      studentId: student.id,
      newPhone: changes.phone ?? null,
      newEmail: changes.email ?? null,
      tokenHash: hashToken(token),
      createdAt: now,
      expiresAt: new Date(now.getTime() + CONFIRM_LINK_MINUTES * 60_000),
    });
    await deps.jobs.sendMail(tx, confirmChangeMail(sentTo, changes, link));
  });
  return `Your other details are saved. To change your ${describeChanges(changes)}, open the link we sent to ${sentTo} within ${CONFIRM_LINK_MINUTES} minutes, while signed in.`;
}

/**
 * The new phone number and/or e-mail a link would set, for the confirmation page to name before
 * the student presses the button. Only its own student sees them (they typed them); any other
 * link, used, expired or someone else's, gets the same refusal as confirming it would.
 */
export async function pendingContactChange(
  deps: Pick<Deps, "db" | "now">,
  student: SignedInStudent,
  token: string,
) {
  const [request] = await deps.db
    .select()
    .from(contactChangeRequests)
    .where(eq(contactChangeRequests.tokenHash, hashToken(token)));
  if (
    !request ||
    request.studentId !== student.id ||
    request.usedAt ||
    request.expiresAt <= deps.now()
  ) {
    throw new ApiError(400, LINK_NOT_VALID);
  }
  return { phone: request.newPhone, email: request.newEmail };
}

/**
 * Applies a waiting change when its own student opens the link: records each field in the
 * audit trail, signs out every other session, cancels the reset links mailed to an old address
 * and, in the same transaction, queues a notice to the old and new addresses. A link is spent even when the phone or address turns out to be taken.
 */
export async function confirmContactChange(
  deps: Deps,
  student: SignedInStudent,
  token: string,
  clientAddress: string,
): Promise<Student> {
  const now = deps.now();
  let outcome;
  try {
    outcome = await deps.db.transaction(async (tx) => {
      const [request] = await tx
        .select()
        .from(contactChangeRequests)
        .where(eq(contactChangeRequests.tokenHash, hashToken(token)))
        .for("update");
      if (
        !request ||
        request.studentId !== student.id ||
        request.usedAt ||
        request.expiresAt <= now
      ) {
        return { refusal: new ApiError(400, LINK_NOT_VALID) };
      }
      await tx
        .update(contactChangeRequests)
        .set({ usedAt: now })
        .where(eq(contactChangeRequests.id, request.id));
      const [before] = await tx
        .select()
        .from(students)
        .where(eq(students.id, student.id))
        .for("update");
      if (!before) throw new ApiError(404, "Your student record no longer exists.");
      assertUnlocked(before);
      const changes = contactChangesOf(before, {
        ...(request.newPhone ? { phone: request.newPhone } : {}),
        ...(request.newEmail ? { email: request.newEmail } : {}),
      });
      if (!changes) return { after: before };
      const taken = await takenContact(tx, student.id, changes);
      if (taken) return { refusal: taken };
      const [after] = await tx
        .update(students)
        .set({ ...changes, updatedAt: now })
        .where(eq(students.id, student.id))
        .returning();
      if (changes.email) await cancelUnusedResetLinks(tx, [student.id], now);
      if (changes.phone) await cancelUnusedResetCodes(tx, [student.id], now);
      await recordChanges(tx, before, changes, now, clientAddress);
      await endOtherSessions(tx, student.id, student.sessionTokenHash, now);
      await queueNotices(deps, tx, before, after!, now);
      return { after: after! };
    });
  } catch (error) {
    // Another student took the number or address between our check and this write.
    if (isUniqueViolation(error)) throw new ApiError(409, TAKEN_JUST_NOW);
    throw error;
  }
  if ("refusal" in outcome) throw outcome.refusal;
  return outcome.after;
}

async function takenContact(tx: Transaction, ownId: number, changes: ContactChanges) {
  const usedByAnother = async (condition: ReturnType<typeof eq>) => {
    const [row] = await tx
      .select({ id: students.id })
      .from(students)
      .where(and(condition, ne(students.id, ownId)))
      .limit(1);
    return row !== undefined;
  };
  if (changes.phone && (await usedByAnother(eq(students.phone, changes.phone)))) {
    return new ApiError(409, PHONE_TAKEN, { fields: { phone: PHONE_TAKEN } });
  }
  if (changes.email && (await usedByAnother(sql`lower(${students.email}) = ${changes.email}`))) {
    return new ApiError(409, EMAIL_TAKEN, { fields: { email: EMAIL_TAKEN } });
  }
  return null;
}

async function recordChanges(
  tx: Transaction,
  before: Student,
  changes: ContactChanges,
  at: Date,
  clientAddress: string,
) {
  const rows = (["phone", "email"] as const)
    .filter((field) => changes[field])
    .map((field) => ({
      studentId: before.id,
      field,
      // "" when the student had no e-mail address before (decision 156).
      oldValue: before[field] ?? "",
      newValue: changes[field]!,
      changedAt: at,
      clientAddress,
    }));
  await tx.insert(accountChanges).values(rows);
}

async function queueNotices(
  deps: Deps,
  tx: Transaction,
  before: Student,
  after: Student,
  at: Date,
) {
  for (const to of new Set([before.email, after.email].filter((address) => address !== null))) {
    await deps.jobs.sendMail(tx, contactChangedNotice({ to, before, after, at, ...deps }));
  }
}
