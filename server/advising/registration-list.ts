import { and, asc, count, eq, sql, type SQL } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import {
  courseRegistrations,
  courses,
  departments,
  registrationApprovals,
  registrationReturns,
  students,
} from "../db/schema.ts";
import type { SignedInStaff } from "../staff/staff-sessions.ts";
import {
  REGISTRATION_PAGE_SIZE,
  type RegistrationListQuery,
  type RegistrationListRow,
  type ReviewStatus,
} from "../../src/lib/staff/registrations.ts";
import { advisedBy, readsEveryDepartment } from "./adviser-scope.ts";

type Filters = Omit<RegistrationListQuery, "session" | "page"> & { session: string; page: number };

/** Whether the semester of the student row in the query has registered courses. */
const hasCourses = (session: string, semester: 1 | 2) =>
  sql`exists (select 1 from ${courseRegistrations} where ${courseRegistrations.studentId} = ${students.id} and ${courseRegistrations.session} = ${session} and ${courseRegistrations.semester} = ${semester})`;

const reviewed = (table: typeof registrationApprovals | typeof registrationReturns, session: string, semester: 1 | 2) =>
  sql`exists (select 1 from ${table} where ${table.studentId} = ${students.id} and ${table.session} = ${session} and ${table.semester} = ${semester})`;

/** The same rule as semesterStatus() in semester-review.ts, in SQL so the list filters and pages in the database. */
const semesterStatus = (session: string, semester: 1 | 2) => sql<ReviewStatus>`case
  when not ${hasCourses(session, semester)} then 'not_submitted'
  when ${reviewed(registrationApprovals, session, semester)} then 'approved'
  when ${reviewed(registrationReturns, session, semester)} then 'returned'
  else 'pending' end`;

const sessionUnits = (session: string) =>
  sql<number>`coalesce((select sum(${courses.unit}) from ${courseRegistrations} inner join ${courses} on ${courses.id} = ${courseRegistrations.courseId} where ${courseRegistrations.studentId} = ${students.id} and ${courseRegistrations.session} = ${session}), 0)::int`;

/**
 * The students a staff member may see with their registration in a session: an adviser's own
 * departments and levels, or every student for the registry. Filtered and paged in the database.
 */
export async function registrationList(db: Database, member: SignedInStaff, filters: Filters) {
  const scope: SQL[] = [];
  if (!readsEveryDepartment(member)) scope.push(advisedBy(member));
  if (filters.level) scope.push(eq(students.level, filters.level));
  if (filters.department_id) scope.push(eq(students.departmentId, filters.department_id));

  const perStudent = db
    .select({
      studentId: students.id,
      name: sql<string>`${students.surname} || ' ' || ${students.othername}`.as("name"),
      matricNo: students.matricNo,
      department: sql<string>`${departments.name}`.as("department"),
      level: students.level,
      totalUnits: sessionUnits(filters.session).as("total_units"),
      first: semesterStatus(filters.session, 1).as("first_semester"),
      second: semesterStatus(filters.session, 2).as("second_semester"),
    })
    .from(students)
    .innerJoin(departments, eq(departments.id, students.departmentId))
    .where(and(...scope))
    .as("per_student");
  // One status per student: what needs the adviser first (pending), then what waits on the student.
  const overall = sql<ReviewStatus>`case
    when 'pending' in (${perStudent.first}, ${perStudent.second}) then 'pending'
    when 'returned' in (${perStudent.first}, ${perStudent.second}) then 'returned'
    when 'approved' in (${perStudent.first}, ${perStudent.second}) then 'approved'
    else 'not_submitted' end`;
  const where = filters.status ? eq(overall, filters.status) : undefined;

  const [total] = await db.select({ rows: count() }).from(perStudent).where(where);
  const rows = await db
    .select({
      student_id: perStudent.studentId,
      name: perStudent.name,
      matric_no: perStudent.matricNo,
      department: perStudent.department,
      level: perStudent.level,
      total_units: perStudent.totalUnits,
      status: overall,
      first_semester: perStudent.first,
      second_semester: perStudent.second,
    })
    .from(perStudent)
    .where(where)
    .orderBy(asc(perStudent.department), asc(perStudent.level), asc(perStudent.name), asc(perStudent.studentId))
    .limit(REGISTRATION_PAGE_SIZE)
    .offset((filters.page - 1) * REGISTRATION_PAGE_SIZE);
  const data: RegistrationListRow[] = rows;
  return { session: filters.session, data, total: total?.rows ?? 0, page: filters.page, page_size: REGISTRATION_PAGE_SIZE };
}
