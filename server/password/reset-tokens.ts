import { createHash, randomBytes } from "node:crypto";
import { and, eq, inArray, isNull } from "drizzle-orm";
import type { Database, Transaction } from "../db/client.ts";
import { passwordResetTokens, students } from "../db/schema.ts";
import { lockStudent } from "../students/student-lock.ts";
import { decodeUid } from "./uidb64.ts";
import { setPasswordSpending } from "./student-password.ts";

/** How long a reset link works after it is sent. */
export const RESET_LINK_MINUTES = 30;

type Student = typeof students.$inferSelect;

/**
 * We keep only a hash of the token, taken together with the student's current password hash:
 * any change of password (by this reset or any other way) makes every earlier link unfindable,
 * with no clock comparison between the API and the database.
 */
function tokenHash(token: string, passwordHash: string) {
  return createHash("sha256").update(`${token}\n${passwordHash}`).digest("hex");
}

type LinkOptions = {
  /** How long the link works: the reset link's 30 minutes unless told. */
  lifetimeMinutes?: number;
  /** The student's earlier unused links stop working (an activation link replaces them). */
  replacesEarlier?: boolean;
  /** "activation" for the registry's links; the record page and the link's page tell them apart. */
  purpose?: "reset" | "activation";
};

/**
 * Stores a new single-use token for the student and returns it (256 random bits, base64url), or
 * null when the student's e-mail address is no longer `student.email`: the link would go to an
 * address that has just stopped being theirs. The registry's activation links live longer
 * (server/students/registry/activation.ts).
 */
export async function issueResetToken(
  tx: Transaction,
  student: Student,
  now: Date,
  {
    lifetimeMinutes = RESET_LINK_MINUTES,
    replacesEarlier = false,
    purpose = "reset",
  }: LinkOptions = {},
): Promise<string | null> {
  // Under the row lock a change of address either has committed (and is seen here) or waits
  // for this token and then cancels it (cancelUnusedResetLinks): no link outlives its address.
  const current = await lockStudent(tx, student.id);
  if (current?.email !== student.email) return null;
  if (replacesEarlier) await cancelUnusedResetLinks(tx, [student.id], now, { replaced: true });
  const token = randomBytes(32).toString("base64url");
  await tx.insert(passwordResetTokens).values({
    studentId: student.id,
    tokenHash: tokenHash(token, student.passwordHash),
    createdAt: now,
    expiresAt: new Date(now.getTime() + lifetimeMinutes * 60_000),
    purpose,
    sentTo: student.email,
  });
  return token;
}

/**
 * Makes every unused reset and activation link of these students unusable, as if spent. Called in
 * the transaction that changes their e-mail address, after the row is written: a link mailed to
 * the old address must not outlive it (decision 139).
 */
export async function cancelUnusedResetLinks(
  tx: Transaction,
  studentIds: number[],
  now: Date,
  { replaced = false } = {},
) {
  if (studentIds.length === 0) return;
  await tx
    .update(passwordResetTokens)
    // A replaced link's page says a newer one was sent (decision 156); a link cancelled by a change
    // of address is refused like any spent link.
    .set({ usedAt: now, ...(replaced ? { replacedAt: now } : {}) })
    .where(
      and(inArray(passwordResetTokens.studentId, studentIds), isNull(passwordResetTokens.usedAt)),
    );
}

/** The student a link names and the token row it matches (live or not), or null for a link we never sent. */
async function linkedToken(db: Database, uidb64: string, token: string) {
  const studentId = decodeUid(uidb64);
  if (studentId === null || !/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
  const [student] = await db.select().from(students).where(eq(students.id, studentId)).limit(1);
  if (!student) return null;
  // The hash is keyed by the password hash too: a link dies when the password changes.
  const [row] = await db
    .select()
    .from(passwordResetTokens)
    .where(
      and(
        eq(passwordResetTokens.studentId, student.id),
        eq(passwordResetTokens.tokenHash, tokenHash(token, student.passwordHash)),
      ),
    )
    .limit(1);
  return row ? { student, row } : null;
}

/** The student and token row a link names, or null when the link is unknown, used or expired. */
export async function findLiveResetToken(db: Database, uidb64: string, token: string, now: Date) {
  const linked = await linkedToken(db, uidb64, token);
  if (!linked || linked.row.usedAt || linked.row.expiresAt <= now) return null;
  return { student: linked.student, tokenId: linked.row.id };
}

/** Why a link that is not live stopped working, when the link is one we sent; null otherwise. */
export type DeadLink =
  | { why: "replaced"; purpose: string; at: Date; hasEmail: boolean }
  | { why: "expired"; purpose: string; at: Date; hasEmail: boolean };

/**
 * Why a genuine link no longer works: replaced by a newer activation link, or expired. Only a
 * holder of the link (256 random bits) learns this; a used link, a link cancelled by a change of
 * address, and any link we never sent answer null, alike.
 */
export async function whyLinkIsDead(
  db: Database,
  uidb64: string,
  token: string,
  now: Date,
): Promise<DeadLink | null> {
  const linked = await linkedToken(db, uidb64, token);
  if (!linked) return null;
  const { student, row } = linked;
  const hasEmail = student.email !== null;
  if (row.replacedAt)
    return { why: "replaced", purpose: row.purpose, at: row.replacedAt, hasEmail };
  if (!row.usedAt && row.expiresAt <= now)
    return { why: "expired", purpose: row.purpose, at: row.expiresAt, hasEmail };
  return null;
}

/**
 * Spends the token and sets the new password hash in one transaction, then signs the student
 * out everywhere. Returns false when another request spent the token or changed the password
 * first, so two clicks on one link can never both succeed.
 */
export function completeReset(
  db: Database,
  live: { student: Student; tokenId: number },
  newPasswordHash: string,
  now: Date,
): Promise<boolean> {
  return setPasswordSpending(db, live.student, newPasswordHash, now, async (tx) => {
    const spent = await tx
      .update(passwordResetTokens)
      .set({ usedAt: now })
      .where(and(eq(passwordResetTokens.id, live.tokenId), isNull(passwordResetTokens.usedAt)))
      .returning({ id: passwordResetTokens.id });
    return spent.length > 0;
  });
}
