import { eq, sql } from "drizzle-orm";
import { anyWhenNull, preparedQuery } from "../db/prepared.ts";
import type { Database } from "../db/client.ts";
import { students } from "../db/schema.ts";
import type { RegistrationSlip, StudentView } from "../../common/courses/registered-course.ts";
import { markCarryOvers } from "../../common/courses/carry-overs.ts";
import { gradePublishedRecord, publishedRecordColumns } from "../results/published-record.ts";
import { carryOversFor, type CarryOverCourseRow } from "./carry-overs.ts";
import type { SemesterResult } from "../../common/results/grading.ts";

// The dashboard, the course page, the slip and the adviser's review read a student's semester on
// every visit: its courses, approvals and returns come back from one prepared statement, one round
// trip to the database instead of three (decision 112). A null level means any.
// Written as SQL: inside a select's fields the ORM leaves columns unqualified, and these
// subqueries join tables that share column names.
const studentIdParam = sql.placeholder("studentId");
const sessionParam = sql.placeholder("session");
const REGISTRATION_RECORD = {
  registered: sql<RegisteredRow[]>`coalesce((
    select json_agg(json_build_object(
      'id', r.id, 'course_id', c.id, 'code', c.code, 'title', c.title, 'unit', c.unit, 'semester', r.semester, 'level', r.level
    ) order by r.semester, c.code)
    from course_registrations r join courses c on c.id = r.course_id
    where r.student_id = ${studentIdParam} and r.session = ${sessionParam}
      and ${anyWhenNull(sql`r.level`, sql.placeholder("level"))}
  ), '[]'::json)`,
  approvals: sql<ApprovalRow[]>`coalesce((
    select json_agg(json_build_object(
      'semester', a.semester, 'adviser', coalesce(s.name, a.approved_by, ''), 'at', a.approved_at
    ) order by a.semester)
    from registration_approvals a left join staff s on s.id = a.staff_id
    where a.student_id = ${studentIdParam} and a.session = ${sessionParam}
  ), '[]'::json)`,
  returns: sql<ReturnRow[]>`coalesce((
    select json_agg(json_build_object(
      'semester', t.semester, 'adviser', s.name, 'at', t.returned_at, 'note', t.note
    ) order by t.semester)
    from registration_returns t join staff s on s.id = t.staff_id
    where t.student_id = ${studentIdParam} and t.session = ${sessionParam}
  ), '[]'::json)`,
};

interface RegisteredRow {
  id: number;
  course_id: number;
  code: string;
  title: string;
  unit: number;
  semester: number;
  level: number;
}
interface ApprovalRow {
  semester: number;
  adviser: string;
  at: string;
}
interface ReturnRow {
  semester: number;
  adviser: string;
  at: string;
  note: string;
}

// Selected from the student's own row, which a signed-in student always has: a prepared statement
// needs a FROM, and this one costs an index lookup.
const registrationRecordQuery = preparedQuery((db) =>
  db
    .select(REGISTRATION_RECORD)
    .from(students)
    .where(eq(students.id, studentIdParam))
    .prepare("registration_record"),
);

/**
 * The registration record and the student's published record (the carry-overs' source) as one
 * read (decision 204): the course picker, the carry-overs and the slip need both, and asked them
 * of two statements, the registration record twice on the picker.
 */
const registrationAndPublishedQuery = preparedQuery((db) =>
  db
    .select({ ...REGISTRATION_RECORD, ...publishedRecordColumns })
    .from(students)
    .where(eq(students.id, studentIdParam))
    .prepare("registration_and_published_record"),
);

const semesterOf = (value: number): 1 | 2 => (value === 2 ? 2 : 1);
// JSON carries PostgreSQL's own timestamp text (microseconds, the connection's offset); the API
// answers ISO instants in UTC to the millisecond, as the driver's Date gave them.
const isoInstant = (text: string) => new Date(text).toISOString();

/**
 * The courses a student has registered in a session (optionally at one level only), with the
 * Course Advisor's approvals and returns of its semesters. An approval names the adviser by their
 * current name, or by the name recorded before staff accounts existed (docs/decisions/085).
 */
export async function registrationRecord(
  db: Database,
  studentId: number,
  session: string,
  level?: number,
): Promise<StudentView> {
  const [row] = await registrationRecordQuery(db).execute({
    studentId,
    session,
    level: level ?? null,
  });
  return studentView(row);
}

/**
 * `registrationRecord` with the student's published record graded (`publishedRecord`), the
 * carry-overs' source (`carryOversFor`), from one read (decision 204).
 */
export async function registrationAndPublished(
  db: Database,
  studentId: number,
  session: string,
  level?: number,
): Promise<{ record: StudentView; published: SemesterResult[] }> {
  const [row] = await registrationAndPublishedQuery(db).execute({
    studentId,
    session,
    level: level ?? null,
  });
  return {
    record: studentView(row),
    published: row ? gradePublishedRecord(row, studentId) : [],
  };
}

/** The session's registration record and its carry-overs (decision 180). */
export async function registrationWithCarryOvers(
  db: Database,
  student: { id: number; programmeId: number },
  session: string,
): Promise<{ record: StudentView; carryOvers: CarryOverCourseRow[] }> {
  const { record, published } = await registrationAndPublished(db, student.id, session);
  return { record, carryOvers: await carryOversFor(db, student, session, published) };
}

function studentView(
  row: { registered: RegisteredRow[]; approvals: ApprovalRow[]; returns: ReturnRow[] } | undefined,
): StudentView {
  if (!row) return { data: [], approvals: [], returns: [] };
  return {
    data: row.registered.map((course) => ({
      id: course.id,
      course_id: course.course_id,
      code: course.code,
      title: course.title,
      unit: String(course.unit),
      semester: semesterOf(course.semester),
      registration_level: course.level,
    })),
    approvals: row.approvals.map((approval) => ({
      semester: semesterOf(approval.semester),
      approved_by: approval.adviser,
      approved_at: isoInstant(approval.at),
    })),
    returns: row.returns.map((returned) => ({
      semester: semesterOf(returned.semester),
      returned_by: returned.adviser,
      returned_at: isoInstant(returned.at),
      note: returned.note,
    })),
  };
}

/**
 * What the registration slip prints, its courses registered as carry-overs marked; null when
 * nothing is registered at that level and session. One read with the carry-overs (decision 204).
 */
export async function registrationSlip(
  db: Database,
  student: { id: number; programmeId: number },
  session: string,
  level: number,
): Promise<RegistrationSlip | null> {
  const { record, published } = await registrationAndPublished(db, student.id, session, level);
  const { data: registered, approvals } = record;
  if (registered.length === 0) return null;
  const carryOvers = await carryOversFor(db, student, session, published);
  return {
    level,
    session,
    first_semester: markCarryOvers(
      registered.filter((course) => course.semester === 1),
      carryOvers,
    ),
    second_semester: markCarryOvers(
      registered.filter((course) => course.semester === 2),
      carryOvers,
    ),
    approvals,
  };
}
