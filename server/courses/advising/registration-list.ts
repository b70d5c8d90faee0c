import { and, asc, count, desc, eq, sql, type SQL } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import {
  courseRegistrations,
  courses,
  departments,
  registrationApprovals,
  registrationResubmissions,
  registrationReturns,
  students,
} from "../../db/schema.ts";
import type { SignedInStaff } from "../../staff/staff-sessions.ts";
import {
  REGISTRATION_PAGE_SIZE,
  type ListStatus,
  type RegistrationListQuery,
  type RegistrationListRow,
  type ReviewStatus,
} from "../../../common/courses/advising.ts";
import { advisedBy, readsEveryDepartment } from "./adviser-scope.ts";

type Filters = Omit<RegistrationListQuery, "session" | "page" | "status"> & {
  /** Null: every session (the waiting view only). */
  session: string | null;
  status: ListStatus;
  page: number;
};

/** A session name given as a value, or the session column of the row in the query. */
type SessionRef = string | SQL;

/** Whether the semester of the student row in the query has registered courses. */
const hasCourses = (session: SessionRef, semester: 1 | 2) =>
  sql`exists (select 1 from ${courseRegistrations} where ${courseRegistrations.studentId} = ${students.id} and ${courseRegistrations.session} = ${session} and ${courseRegistrations.semester} = ${semester})`;

const recorded = (
  table:
    typeof registrationApprovals | typeof registrationReturns | typeof registrationResubmissions,
  session: SessionRef,
  semester: 1 | 2,
) =>
  sql`exists (select 1 from ${table} where ${table.studentId} = ${students.id} and ${table.session} = ${session} and ${table.semester} = ${semester})`;

/** The same rule as semesterStatus() in semester-review.ts, in SQL so the list filters and pages in the database. */
const semesterStatus = (session: SessionRef, semester: 1 | 2) => sql<ReviewStatus>`case
  when not ${hasCourses(session, semester)} then 'not_submitted'
  when ${recorded(registrationApprovals, session, semester)} then 'approved'
  when ${recorded(registrationReturns, session, semester)} then 'returned'
  else 'pending' end`;

const sessionUnits = (session: SessionRef) =>
  sql<number>`coalesce((select sum(${courses.unit}) from ${courseRegistrations} inner join ${courses} on ${courses.id} = ${courseRegistrations.courseId} where ${courseRegistrations.studentId} = ${students.id} and ${courseRegistrations.session} = ${session}), 0)::int`;

/** Every (student, session) with a registration: the waiting view's rows across sessions. */
const registeredSessions = sql`(select distinct ${courseRegistrations.studentId} as student_id, ${courseRegistrations.session} as session from ${courseRegistrations}) as registered`;

/**
 * The students a staff member may see with their registration in a session, or (the waiting
 * view) every registration across sessions that waits for an adviser: an adviser's own
 * departments and levels, or every student for the registry. Filtered and paged in the database.
 * The waiting view lists first submissions before semesters changed after a return.
 */
export async function registrationList(db: Database, member: SignedInStaff, filters: Filters) {
  const scope: SQL[] = [];
  if (!readsEveryDepartment(member)) scope.push(advisedBy(member));
  if (filters.level) scope.push(eq(students.level, filters.level));
  if (filters.department_id) scope.push(eq(students.departmentId, filters.department_id));
  const across = filters.session === null;
  const session: SessionRef = across ? sql.raw("registered.session") : filters.session!;
  const pendingAfterReturn = sql<boolean>`((${semesterStatus(session, 1)} = 'pending' and ${recorded(registrationResubmissions, session, 1)})
    or (${semesterStatus(session, 2)} = 'pending' and ${recorded(registrationResubmissions, session, 2)}))`;

  const columns = {
    studentId: students.id,
    session: sql<string>`${session}::text`.as("session"),
    name: sql<string>`${students.surname} || ' ' || ${students.othername}`.as("name"),
    matricNo: students.matricNo,
    department: sql<string>`${departments.name}`.as("department"),
    level: students.level,
    totalUnits: sessionUnits(session).as("total_units"),
    first: semesterStatus(session, 1).as("first_semester"),
    second: semesterStatus(session, 2).as("second_semester"),
    changed: pendingAfterReturn.as("changed_since_return"),
  };
  const base = db
    .select(columns)
    .from(students)
    .innerJoin(departments, eq(departments.id, students.departmentId));
  const perStudent = (
    across ? base.innerJoin(registeredSessions, sql`registered.student_id = ${students.id}`) : base
  )
    .where(and(...scope))
    .as("per_student");
  // One status per student: what needs the adviser first (pending), then what waits on the student.
  const overall = sql<ReviewStatus>`case
    when 'pending' in (${perStudent.first}, ${perStudent.second}) then 'pending'
    when 'returned' in (${perStudent.first}, ${perStudent.second}) then 'returned'
    when 'approved' in (${perStudent.first}, ${perStudent.second}) then 'approved'
    else 'not_submitted' end`;
  const status = filters.status === "waiting" ? "pending" : filters.status;
  const where = status === "all" ? undefined : eq(overall, status);
  const order =
    filters.status === "waiting"
      ? [
          asc(perStudent.changed),
          desc(perStudent.session),
          asc(perStudent.department),
          asc(perStudent.level),
          asc(perStudent.name),
          asc(perStudent.studentId),
        ]
      : [
          asc(perStudent.department),
          asc(perStudent.level),
          asc(perStudent.name),
          asc(perStudent.studentId),
        ];

  const [total] = await db.select({ rows: count() }).from(perStudent).where(where);
  const rows = await db
    .select({
      student_id: perStudent.studentId,
      session: perStudent.session,
      name: perStudent.name,
      matric_no: perStudent.matricNo,
      department: perStudent.department,
      level: perStudent.level,
      total_units: perStudent.totalUnits,
      status: overall,
      first_semester: perStudent.first,
      second_semester: perStudent.second,
      changed_since_return: perStudent.changed,
    })
    .from(perStudent)
    .where(where)
    .orderBy(...order)
    .limit(REGISTRATION_PAGE_SIZE)
    .offset((filters.page - 1) * REGISTRATION_PAGE_SIZE);
  const data: RegistrationListRow[] = rows;
  return {
    session: filters.session,
    status: filters.status,
    data,
    total: total?.rows ?? 0,
    page: filters.page,
    page_size: REGISTRATION_PAGE_SIZE,
  };
}
