import { eq, inArray } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import {
  academicSessions,
  complaints,
  courseMappings,
  courses,
  departments,
  faculties,
  feeSchedule,
  libraryItems,
  payments,
  programmes,
  staff,
  students,
} from "../db/schema.ts";

type Row = {
  entity: string;
  entityId: string | null;
  staffId: number | null;
  byStudentId: number | null;
};

const SEMESTERS: Record<string, string> = { "1": "first semester", "2": "second semester" };
const numeric = (value: string | null) =>
  value !== null && /^\d{1,9}$/.test(value) ? Number(value) : null;
const unique = <T>(values: (T | null | undefined)[]) => [
  ...new Set(values.filter((value): value is T => value !== null && value !== undefined)),
];

/** Rows of `table` whose key is in `keys`, as a map; no query for an empty list. */
async function byKey<K extends string | number, R>(
  keys: K[],
  load: (keys: K[]) => Promise<R[]>,
  keyOf: (row: R) => K,
) {
  return new Map((keys.length ? await load(keys) : []).map((row) => [keyOf(row), row] as const));
}

/**
 * Names for one page of the log: who did each change ("Ngozi Eze (registry@…)", a student by
 * name and matric number, or Paystack) and which record it touched ("Amaka Obi (BIO/2023/001)",
 * "Complaint CMP-7K3QX9 from …"), never a bare "student 75". A few lookups for the whole page.
 */
export async function describeAuditRows(db: Database, rows: Row[]) {
  const idsOf = (entity: string) =>
    unique(rows.filter((row) => row.entity === entity).map((row) => numeric(row.entityId)));
  const keysOf = (entity: string) =>
    unique(rows.filter((row) => row.entity === entity).map((row) => row.entityId));

  const [complaintRows, paymentRows] = await Promise.all([
    byKey(
      keysOf("complaint"),
      (keys) =>
        db
          .select({ key: complaints.ticket, studentId: complaints.studentId })
          .from(complaints)
          .where(inArray(complaints.ticket, keys)),
      (row) => row.key,
    ),
    byKey(
      keysOf("payment"),
      (keys) =>
        db
          .select({ key: payments.reference, studentId: payments.studentId })
          .from(payments)
          .where(inArray(payments.reference, keys)),
      (row) => row.key,
    ),
  ]);
  const registrationStudent = (row: Row) => numeric(row.entityId?.split(":")[0] ?? null);
  const studentOf = (row: Row): number | null =>
    row.entity === "student"
      ? numeric(row.entityId)
      : row.entity === "course_registration"
        ? registrationStudent(row)
        : row.entity === "complaint"
          ? (complaintRows.get(row.entityId ?? "")?.studentId ?? null)
          : row.entity === "payment"
            ? (paymentRows.get(row.entityId ?? "")?.studentId ?? null)
            : null;

  const studentIds = unique([...rows.map(studentOf), ...rows.map((row) => row.byStudentId)]);
  const staffIds = unique([...rows.map((row) => row.staffId), ...idsOf("staff")]);
  const [
    studentRows,
    staffRows,
    sessions,
    faculty,
    department,
    programme,
    course,
    mapping,
    library,
    fees,
  ] = await Promise.all([
    byKey(
      studentIds,
      (ids) =>
        db
          .select({
            id: students.id,
            surname: students.surname,
            othername: students.othername,
            matricNo: students.matricNo,
            applicationNo: students.applicationNo,
          })
          .from(students)
          .where(inArray(students.id, ids)),
      (row) => row.id,
    ),
    byKey(
      staffIds,
      (ids) =>
        db
          .select({ id: staff.id, name: staff.name, email: staff.email })
          .from(staff)
          .where(inArray(staff.id, ids)),
      (row) => row.id,
    ),
    byKey(
      idsOf("academic_session"),
      (ids) =>
        db
          .select({ id: academicSessions.id, name: academicSessions.name })
          .from(academicSessions)
          .where(inArray(academicSessions.id, ids)),
      (row) => row.id,
    ),
    byKey(
      idsOf("faculty"),
      (ids) =>
        db
          .select({ id: faculties.id, name: faculties.name })
          .from(faculties)
          .where(inArray(faculties.id, ids)),
      (row) => row.id,
    ),
    byKey(
      idsOf("department"),
      (ids) =>
        db
          .select({ id: departments.id, name: departments.name })
          .from(departments)
          .where(inArray(departments.id, ids)),
      (row) => row.id,
    ),
    byKey(
      idsOf("programme"),
      (ids) =>
        db
          .select({ id: programmes.id, name: programmes.name })
          .from(programmes)
          .where(inArray(programmes.id, ids)),
      (row) => row.id,
    ),
    byKey(
      idsOf("course"),
      (ids) =>
        db
          .select({ id: courses.id, name: courses.code })
          .from(courses)
          .where(inArray(courses.id, ids)),
      (row) => row.id,
    ),
    byKey(
      idsOf("course_mapping"),
      (ids) =>
        db
          .select({
            id: courseMappings.id,
            code: courses.code,
            programme: programmes.name,
            level: courseMappings.level,
          })
          .from(courseMappings)
          .innerJoin(courses, eq(courses.id, courseMappings.courseId))
          .innerJoin(programmes, eq(programmes.id, courseMappings.programmeId))
          .where(inArray(courseMappings.id, ids)),
      (row) => row.id,
    ),
    byKey(
      idsOf("library_item"),
      (ids) =>
        db
          .select({ id: libraryItems.id, name: libraryItems.description })
          .from(libraryItems)
          .where(inArray(libraryItems.id, ids)),
      (row) => row.id,
    ),
    byKey(
      idsOf("fee"),
      (ids) =>
        db
          .select({
            id: feeSchedule.id,
            session: feeSchedule.session,
            level: feeSchedule.level,
            option: feeSchedule.paymentOption,
            mode: feeSchedule.studyMode,
            programme: programmes.name,
          })
          .from(feeSchedule)
          .leftJoin(programmes, eq(programmes.id, feeSchedule.programmeId))
          .where(inArray(feeSchedule.id, ids)),
      (row) => row.id,
    ),
  ]);

  const student = (id: number | null) => {
    const found = id === null ? undefined : studentRows.get(id);
    return found
      ? `${found.othername} ${found.surname} (${found.matricNo ?? found.applicationNo})`
      : null;
  };
  const member = (id: number | null) => {
    const found = id === null ? undefined : staffRows.get(id);
    return found ? `${found.name} (${found.email})` : null;
  };
  const named = (map: Map<number, { name: string }>, row: Row, what: string) => {
    const found = map.get(numeric(row.entityId) ?? -1);
    return found
      ? `${what} ${found.name}`
      : `${what} no longer on the portal (number ${row.entityId})`;
  };

  function record(row: Row): string {
    const id = row.entityId ?? "";
    switch (row.entity) {
      case "student":
        return `Student ${student(studentOf(row)) ?? `number ${id}`}`;
      case "course_registration": {
        const [, session, semester] = id.split(":");
        return `Course registration of ${student(studentOf(row)) ?? "a student"}, ${session ?? ""} ${SEMESTERS[semester ?? ""] ?? ""}`.trim();
      }
      case "complaint":
        return `Complaint ${id} from ${student(studentOf(row)) ?? "a student"}`;
      case "payment":
        return `Payment ${id} by ${student(studentOf(row)) ?? "a student"}`;
      case "staff":
        return `Staff account ${member(numeric(row.entityId)) ?? `number ${id}`}`;
      case "academic_session":
        return named(sessions, row, "Session");
      case "faculty":
        return named(faculty, row, "Faculty");
      case "department":
        return named(department, row, "Department");
      case "programme":
        return named(programme, row, "Programme");
      case "course":
        return named(course, row, "Course");
      case "course_mapping": {
        const found = mapping.get(numeric(row.entityId) ?? -1);
        return found
          ? `Course ${found.code} in ${found.programme}, ${found.level} level`
          : `Course mapping number ${id}`;
      }
      case "library_item":
        return named(library, row, "Library item");
      case "announcement":
        return `Announcement number ${id}`;
      case "fee": {
        const found = fees.get(numeric(row.entityId) ?? -1);
        if (!found) return `Fee number ${id}`;
        return `Fee ${found.session}, ${found.programme ?? "every programme"}, ${found.level} level, ${found.mode ?? "every study mode"}, ${found.option}`;
      }
      case "student_import":
        return "Student import";
      case "fee_import":
        return "Fee schedule import";
      case "structure_import":
        return "Academic structure import";
      default:
        return `${row.entity.replaceAll("_", " ")} ${id}`.trim();
    }
  }

  const by = (row: Row) => {
    if (row.staffId !== null) return member(row.staffId) ?? `Staff member number ${row.staffId}`;
    if (row.byStudentId !== null)
      return `${student(row.byStudentId) ?? `Student number ${row.byStudentId}`}, the student`;
    // No person: Paystack caused the change (a reversal, decision 102).
    return "Paystack (automatic)";
  };

  return rows.map((row) => ({ by: by(row), record: record(row), studentId: studentOf(row) }));
}
