import { eq, sql } from "drizzle-orm";
import type { Transaction } from "../db/client.ts";
import { preparedQuery } from "../db/prepared.ts";
import { students } from "../db/schema.ts";

const lockStudentRow = preparedQuery((db) =>
  db
    .select({
      email: students.email,
      phone: students.phone,
      surname: students.surname,
      othername: students.othername,
    })
    .from(students)
    .where(eq(students.id, sql.placeholder("studentId")))
    .for("update")
    .prepare("lock_student"),
);

/**
 * Locks the student's row until the transaction ends, so one student's changes that read before
 * they write run one after another: two course registrations never both read the same unit
 * total, two payments for one fee are never both credited. Answers whom to write or text to (a
 * credited payment's receipt), read with the lock at no extra cost; undefined for no such student.
 */
export async function lockStudent(tx: Transaction, studentId: number) {
  const [student] = await lockStudentRow(tx).execute({ studentId });
  return student;
}
