import { and, asc, eq } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { courseRegistrations, courses } from "../db/schema.ts";
import type { Course } from "../../src/lib/courses/registered-course.ts";

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
