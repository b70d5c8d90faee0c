import { and, asc, eq, sql } from "drizzle-orm";
import { anyWhenNull, preparedQuery } from "../db/prepared.ts";
import type { Database } from "../db/client.ts";
import { courseRegistrations, courses, registrationApprovals, registrationReturns, staff } from "../db/schema.ts";
import type {
  Approval,
  Course,
  RegistrationSlip,
  ReturnedSemester,
} from "../../src/lib/courses/registered-course.ts";

// The dashboard, the course page and the slip read these three on every visit: prepared once,
// so neither the ORM nor PostgreSQL plans them again (decision 112). A null level means any.
const registeredCoursesQuery = preparedQuery((db) =>
  db
    .select({ registration: courseRegistrations, course: courses })
    .from(courseRegistrations)
    .innerJoin(courses, eq(courses.id, courseRegistrations.courseId))
    .where(
      and(
        eq(courseRegistrations.studentId, sql.placeholder("studentId")),
        eq(courseRegistrations.session, sql.placeholder("session")),
        anyWhenNull(courseRegistrations.level, sql.placeholder("level")),
      ),
    )
    .orderBy(asc(courseRegistrations.semester), asc(courses.code))
    .prepare("registered_courses"),
);

/** The courses a student has registered in a session (optionally at one level). */
export async function registeredCourses(
  db: Database,
  studentId: number,
  session: string,
  level?: number,
): Promise<Course[]> {
  const rows = await registeredCoursesQuery(db).execute({ studentId, session, level: level ?? null });
  return rows.map(({ registration, course }) => ({
    id: registration.id,
    course_id: course.id,
    code: course.code,
    title: course.title,
    unit: String(course.unit),
    semester: registration.semester === 2 ? 2 : 1,
    registration_level: registration.level,
  }));
}

const approvalsQuery = preparedQuery((db) =>
  db
    .select({ approval: registrationApprovals, adviser: staff.name })
    .from(registrationApprovals)
    .leftJoin(staff, eq(staff.id, registrationApprovals.staffId))
    .where(
      and(
        eq(registrationApprovals.studentId, sql.placeholder("studentId")),
        eq(registrationApprovals.session, sql.placeholder("session")),
      ),
    )
    .orderBy(asc(registrationApprovals.semester))
    .prepare("registration_approvals_of_student"),
);

/**
 * The Course Advisor's approvals of a student's registration in a session, by semester, named by
 * the approving adviser's current name (or the name recorded before staff accounts existed).
 */
export async function registrationApprovalsFor(
  db: Database,
  studentId: number,
  session: string,
): Promise<Approval[]> {
  const rows = await approvalsQuery(db).execute({ studentId, session });
  return rows.map(({ approval, adviser }) => ({
    semester: approval.semester === 2 ? 2 : 1,
    approved_by: adviser ?? approval.approvedBy ?? "",
    approved_at: approval.approvedAt.toISOString(),
  }));
}

const returnsQuery = preparedQuery((db) =>
  db
    .select({ returned: registrationReturns, adviser: staff.name })
    .from(registrationReturns)
    .innerJoin(staff, eq(staff.id, registrationReturns.staffId))
    .where(
      and(
        eq(registrationReturns.studentId, sql.placeholder("studentId")),
        eq(registrationReturns.session, sql.placeholder("session")),
      ),
    )
    .orderBy(asc(registrationReturns.semester))
    .prepare("registration_returns_of_student"),
);

/** The semesters of a session an adviser has sent back to the student, with the note. */
export async function registrationReturnsFor(
  db: Database,
  studentId: number,
  session: string,
): Promise<ReturnedSemester[]> {
  const rows = await returnsQuery(db).execute({ studentId, session });
  return rows.map(({ returned, adviser }) => ({
    semester: returned.semester === 2 ? 2 : 1,
    returned_by: adviser,
    returned_at: returned.returnedAt.toISOString(),
    note: returned.note,
  }));
}

/** What the registration slip prints; null when nothing is registered at that level and session. */
export async function registrationSlip(
  db: Database,
  studentId: number,
  session: string,
  level: number,
): Promise<RegistrationSlip | null> {
  const [registered, approvals] = await Promise.all([
    registeredCourses(db, studentId, session, level),
    registrationApprovalsFor(db, studentId, session),
  ]);
  if (registered.length === 0) return null;
  return {
    level,
    session,
    first_semester: registered.filter((course) => course.semester === 1),
    second_semester: registered.filter((course) => course.semester === 2),
    approvals,
  };
}
