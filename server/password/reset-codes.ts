import { createHash, randomInt, timingSafeEqual } from "node:crypto";
import { and, desc, eq, gt, inArray, isNull, lt, sql } from "drizzle-orm";
import type { Database, Transaction } from "../db/client.ts";
import { passwordResetCodes, students } from "../db/schema.ts";
import { lockStudent } from "../students/student-lock.ts";
import { setPasswordSpending } from "./student-password.ts";

/** How long a code works after it is sent. */
export const RESET_CODE_MINUTES = 10;
/** Codes tried against one sent code, right or wrong, before it stops working. */
export const RESET_CODE_TRIES = 5;

type Student = typeof students.$inferSelect;

/** Keyed by the password hash, as reset links are: a change of password kills the code. */
function codeHash(code: string, passwordHash: string) {
  return createHash("sha256").update(`${code}\n${passwordHash}`).digest();
}

/**
 * A new 6-digit code for the student (a million possibilities, five tries: one chance in two
 * hundred thousand for a guesser), stored as a hash. Their earlier unused codes stop working, so
 * only the newest SMS counts. Null when the student's phone number is no longer `student.phone`:
 * the code would go to a number that has just stopped being theirs.
 */
export async function issueResetCode(
  tx: Transaction,
  student: Student,
  now: Date,
): Promise<{ code: string; codeId: number } | null> {
  await lockStudent(tx, student.id);
  // Read under the lock: a change of number waits for this code, or has committed and is seen.
  const [current] = await tx
    .select({ phone: students.phone })
    .from(students)
    .where(eq(students.id, student.id));
  if (current?.phone !== student.phone) return null;
  await tx
    .update(passwordResetCodes)
    .set({ usedAt: now })
    .where(and(eq(passwordResetCodes.studentId, student.id), isNull(passwordResetCodes.usedAt)));
  const code = String(randomInt(0, 1_000_000)).padStart(6, "0");
  const [row] = await tx
    .insert(passwordResetCodes)
    .values({
      studentId: student.id,
      codeHash: codeHash(code, student.passwordHash).toString("hex"),
      createdAt: now,
      expiresAt: new Date(now.getTime() + RESET_CODE_MINUTES * 60_000),
    })
    .returning({ id: passwordResetCodes.id });
  return { code, codeId: row!.id };
}

/**
 * Makes every unused SMS code of these students unusable. Called in the transaction that changes
 * their phone number, after the row is written: a code texted to the old number must not outlive
 * it (as reset links die with the address they were mailed to, decision 139).
 */
export async function cancelUnusedResetCodes(tx: Transaction, studentIds: number[], now: Date) {
  if (studentIds.length === 0) return;
  await tx
    .update(passwordResetCodes)
    .set({ usedAt: now })
    .where(
      and(inArray(passwordResetCodes.studentId, studentIds), isNull(passwordResetCodes.usedAt)),
    );
}

/**
 * The student and code when `code` is the live code sent to `phone`; null otherwise, alike for a
 * number nobody has, no code sent, a code expired, spent or tried too often, and a wrong code.
 * The try is counted before the comparison, in one statement that refuses a sixth: guesses sent
 * in parallel cannot get more than five comparisons between them.
 */
export async function checkResetCode(db: Database, phone: string, code: string, now: Date) {
  const [student] = await db.select().from(students).where(eq(students.phone, phone)).limit(1);
  if (!student) return null;
  const [counted] = await db
    .update(passwordResetCodes)
    .set({ tries: sql`${passwordResetCodes.tries} + 1` })
    .where(
      and(
        // Checked again on the row as locked: a parallel try may have taken the fifth meanwhile.
        lt(passwordResetCodes.tries, RESET_CODE_TRIES),
        eq(
          passwordResetCodes.id,
          db
            .select({ id: passwordResetCodes.id })
            .from(passwordResetCodes)
            .where(
              and(
                eq(passwordResetCodes.studentId, student.id),
                isNull(passwordResetCodes.usedAt),
                gt(passwordResetCodes.expiresAt, now),
                lt(passwordResetCodes.tries, RESET_CODE_TRIES),
              ),
            )
            .orderBy(desc(passwordResetCodes.id))
            .limit(1),
        ),
      ),
    )
    .returning();
  if (!counted) return null;
  const expected = Buffer.from(counted.codeHash, "hex");
  if (!timingSafeEqual(codeHash(code, student.passwordHash), expected)) return null;
  return { student, codeId: counted.id };
}

/**
 * Spends the code and sets the new password in one transaction, signing the student out
 * everywhere. False when another request spent the code or changed the password first.
 */
export function completeCodeReset(
  db: Database,
  live: { student: Student; codeId: number },
  newPasswordHash: string,
  now: Date,
): Promise<boolean> {
  return setPasswordSpending(db, live.student, newPasswordHash, now, async (tx) => {
    const spent = await tx
      .update(passwordResetCodes)
      .set({ usedAt: now })
      .where(and(eq(passwordResetCodes.id, live.codeId), isNull(passwordResetCodes.usedAt)))
      .returning({ id: passwordResetCodes.id });
    return spent.length > 0;
  });
}
