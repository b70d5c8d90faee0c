import { and, asc, eq } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { courseRegistrations, courses, registrationApprovals } from "../db/schema.ts";
import type {
  Approval,
  Course,
  RegistrationSlip,
} from "../../src/lib/courses/registered-course.ts";

/** The courses a student has registered in a session (optionally at one level). */
export async function registeredCourses(
  db: Database,
  studentId: number,
  session: string,
  level?: number,
): Promise<Course[]> {
  const rows = await db
    .select({ registration: courseRegistrations, course: courses })
    .from(courseRegistrations)
    .innerJoin(courses, eq(courses.id, courseRegistrations.courseId))
    .where(
      and(
        eq(courseRegistrations.studentId, studentId),
        eq(courseRegistrations.session, session),
        level === undefined ? undefined : eq(courseRegistrations.level, level),
      ),
    )
    .orderBy(asc(courseRegistrations.semester), asc(courses.code));
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

/** The Course Advisor's approvals of a student's registration in a session, by semester. */
export async function registrationApprovalsFor(
  db: Database,
  studentId: number,
  session: string,
): Promise<Approval[]> {
  const rows = await db
    .select()
    .from(registrationApprovals)
    .where(
      and(
        eq(registrationApprovals.studentId, studentId),
        eq(registrationApprovals.session, session),
      ),
    )
    .orderBy(asc(registrationApprovals.semester));
  return rows.map((row) => ({
    semester: row.semester === 2 ? 2 : 1,
    approved_by: row.approvedBy,
    approved_at: row.approvedAt.toISOString(),
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
