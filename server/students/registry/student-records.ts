import { and, asc, count, eq, ilike, like, or, sql, type SQL } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { departments, programmes, students } from "../../db/schema.ts";
import { isUnusablePasswordHash } from "../../auth/password.ts";
import { escapeLike, nameLike } from "../name-search.ts";
import { ApiError } from "../../http/errors.ts";
import { normalizeNigerianPhone } from "../../../common/validation/person.ts";
import type {
  StaffStudent,
  StudentSearchPage,
  StudentSummary,
} from "../../../common/students/registry.ts";
import { signInFailures } from "./sign-in-lockout.ts";
import { lastActivationLink } from "./activation.ts";

export type StudentRow = typeof students.$inferSelect;

export const STUDENT_PAGE_SIZE = 25;

/**
 * What the registry types into the search box: a phone number in any written form, a matric
 * number, a name (surname and other names in either order) or an e-mail address, or part of one.
 */
function matching(q: string): SQL | undefined {
  if (!q) return undefined;
  const pattern = `%${escapeLike(q)}%`;
  const phone = normalizeNigerianPhone(q);
  const digits = q.replace(/[\s().+-]/g, "");
  return or(
    phone ? eq(students.phone, phone) : undefined,
    /^\d{4,}$/.test(digits) ? like(students.phone, `%${escapeLike(digits)}%`) : undefined,
    ilike(students.matricNo, pattern),
    ilike(students.email, pattern),
    nameLike(q),
  );
}

const summaryColumns = {
  student: students,
  programme: programmes.name,
  department: departments.name,
};

function toSummary({
  student,
  programme,
  department,
}: {
  student: StudentRow;
  programme: string;
  department: string;
}): StudentSummary {
  return {
    id: student.id,
    matric_no: student.matricNo,
    surname: student.surname,
    othername: student.othername,
    phone: student.phone,
    email: student.email,
    programme,
    department,
    level: student.level,
    biodata_locked: student.biodataLocked,
    activated: !isUnusablePasswordHash(student.passwordHash),
  };
}

/** One page of students matching `q`, by surname. */
export async function searchStudents(
  db: Database,
  q: string,
  page: number,
): Promise<StudentSearchPage> {
  const where = matching(q);
  const [total] = await db.select({ rows: count() }).from(students).where(where);
  const rows = await db
    .select(summaryColumns)
    .from(students)
    .innerJoin(programmes, eq(programmes.id, students.programmeId))
    .innerJoin(departments, eq(departments.id, students.departmentId))
    .where(where)
    .orderBy(asc(students.surname), asc(students.othername), asc(students.id))
    .limit(STUDENT_PAGE_SIZE)
    .offset((page - 1) * STUDENT_PAGE_SIZE);
  return { data: rows.map(toSummary), total: total?.rows ?? 0, page, page_size: STUDENT_PAGE_SIZE };
}

export async function findStudent(db: Database, id: number): Promise<StudentRow> {
  const [row] = await db.select().from(students).where(eq(students.id, id)).limit(1);
  if (!row) throw new ApiError(404, "There is no student with that id. Search for them again.");
  return row;
}

/** The record page's view of one student, with where they stand on signing in. */
export async function staffStudentView(
  db: Database,
  student: StudentRow,
  now: Date,
): Promise<StaffStudent> {
  const [placed] = await db
    .select(summaryColumns)
    .from(students)
    .innerJoin(programmes, eq(programmes.id, students.programmeId))
    .innerJoin(departments, eq(departments.id, students.departmentId))
    .where(eq(students.id, student.id));
  const signIn = await signInFailures(db, student.phone, now);
  const lastLink = await lastActivationLink(db, student.id, now);
  return {
    ...toSummary(placed!),
    application_no: student.applicationNo,
    programme_id: student.programmeId,
    department_id: student.departmentId,
    entry_session: student.entrySession,
    entry_mode: student.entryMode,
    study_mode: student.studyMode,
    biodata_lock_reason: student.biodataLockReason,
    failed_sign_ins: signIn.failures,
    sign_in_locked: signIn.locked,
    updated_at: student.updatedAt.toISOString(),
    last_activation_link: lastLink,
  };
}

/** The fields of a student that must be unique, as the registry names them. */
export type UniqueFields = {
  matric_no?: string;
  application_no?: string;
  phone?: string;
  email?: string;
};

const UNIQUE_COLUMNS = {
  matric_no: { column: students.matricNo, label: "matric number" },
  application_no: { column: students.applicationNo, label: "application number" },
  phone: { column: students.phone, label: "phone number" },
  email: { column: students.email, label: "e-mail address" },
} as const;

/** A message for each given value that already belongs to another student (e-mail compared without case). */
export async function takenByOthers(db: Database, values: UniqueFields, exceptId: number) {
  const taken: Record<string, string> = {};
  for (const [field, value] of Object.entries(values) as [
    keyof UniqueFields,
    string | undefined,
  ][]) {
    if (value === undefined) continue;
    const { column, label } = UNIQUE_COLUMNS[field];
    const same = field === "email" ? eq(sql`lower(${column})`, value) : eq(column, value);
    const [other] = await db
      .select({ matricNo: students.matricNo, applicationNo: students.applicationNo })
      .from(students)
      .where(and(same, sql`${students.id} <> ${exceptId}`))
      .limit(1);
    if (other)
      taken[field] =
        `That ${label} is already on the record of another student (${other.matricNo ?? other.applicationNo}).`;
  }
  return taken;
}
