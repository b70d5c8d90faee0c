import { and, eq } from "drizzle-orm";
import type { Logger } from "../http/logger.ts";
import type { SessionCache } from "../auth/session-cache.ts";
import type { Database, Transaction } from "../db/client.ts";
import { students } from "../db/schema.ts";
import { endAllSessions } from "../auth/sessions.ts";
import { isUnusablePasswordHash } from "../auth/password.ts";
import { forgetFailedSignIns } from "../auth/sign-in-limits.ts";
import { recordAudit } from "../audit/audit.ts";
import { lockStudent } from "../students/student-lock.ts";

type Student = typeof students.$inferSelect;

/** What a student is told once a reset link or an SMS code has set their password. */
export const PASSWORD_CHANGED = "Your password has been changed. Sign in with your new password.";

/**
 * Sets a new password the student chose themselves (with a reset link or an SMS code) in one
 * transaction: the student's row is locked first (the order a change of contact takes them in,
 * so the two cannot deadlock), then `spend` uses up the link or code, then the password is set,
 * audited and every session ended. False when `spend` found it spent, or somebody changed the
 * password since it was checked (the link or code was dead then anyway: its hash is keyed by the
 * password hash).
 */
export function setPasswordSpending(
  db: Database,
  student: Student,
  newPasswordHash: string,
  now: Date,
  spend: (tx: Transaction) => Promise<boolean>,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    await lockStudent(tx, student.id);
    if (!(await spend(tx))) return false;
    const changed = await tx
      .update(students)
      .set({ passwordHash: newPasswordHash, passwordChangedAt: now, updatedAt: now })
      .where(and(eq(students.id, student.id), eq(students.passwordHash, student.passwordHash)))
      .returning({ id: students.id });
    if (changed.length === 0) return false;
    // The student did it, so no staff member: the row names them (never the link, code or password).
    const action = isUnusablePasswordHash(student.passwordHash)
      ? "student.activated"
      : "student.password_reset";
    await recordAudit(
      tx,
      { staffId: null, byStudentId: student.id, action, entity: "student", entityId: student.id },
      now,
    );
    // The transaction has the database's query builder; signing out commits with the change.
    await endAllSessions(tx as unknown as Database, student.id, now);
    return true;
  });
}

/**
 * After a new password is set: no session of theirs lives on in this process's cache, and a
 * student who locked themselves out by guessing may sign in with it at once.
 */
export async function afterPasswordSet(
  deps: { db: Database; sessionCache?: SessionCache; logger: Logger },
  student: Student,
  how: string,
) {
  deps.sessionCache?.forgetStudent(student.id);
  await forgetFailedSignIns(deps.db, student.phone);
  deps.logger.info(`password set ${how}`, { studentId: student.id });
}
