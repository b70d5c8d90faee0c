import { and, asc, count, eq, sql } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { anyWhenNull, preparedQuery } from "../db/prepared.ts";
import { courseMappings, courses, departments, faculties } from "../db/schema.ts";
import type { Course } from "../../common/courses/registered-course.ts";

type CourseRow = typeof courses.$inferSelect;

const toCourse = (course: CourseRow, id: number, semester: number): Course => ({
  id,
  course_id: course.id,
  code: course.code,
  title: course.title,
  unit: String(course.unit),
  semester: semester === 2 ? 2 : 1,
});

// The course picker asks on every visit: prepared once. A null semester means both.
const mappedCoursesQuery = preparedQuery((db) =>
  db
    .select({ mapping: courseMappings, course: courses })
    .from(courseMappings)
    .innerJoin(courses, eq(courses.id, courseMappings.courseId))
    .where(
      and(
        eq(courseMappings.programmeId, sql.placeholder("programmeId")),
        eq(courseMappings.level, sql.placeholder("level")),
        anyWhenNull(courseMappings.semester, sql.placeholder("semester")),
      ),
    )
    .orderBy(asc(courseMappings.semester), asc(courses.code))
    .prepare("mapped_courses"),
);

/** The courses a programme offers at a level (and semester), in code order; id is the mapping's. */
export async function mappedCourses(
  db: Database,
  filter: { programmeId: number; level: number; semester?: number },
): Promise<Course[]> {
  const rows = await mappedCoursesQuery(db).execute({
    ...filter,
    semester: filter.semester ?? null,
  });
  return rows.map(({ mapping, course }) => toCourse(course, mapping.id, mapping.semester));
}

const SEARCH_LIMIT = 20;

/**
 * Course-code search for the Search Courses modal: codes containing the text (case and spaces
 * ignored) among the courses a programme offers, at one level when given.
 */
export async function searchCourses(
  db: Database,
  filter: { code: string; programmeId: number; level?: number },
): Promise<Course[]> {
  const wanted = filter.code.toLowerCase().replace(/\s+/g, "");
  // Escape LIKE's wildcards so a typed % or _ matches itself.
  const pattern = `%${wanted.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
  const rows = await db
    .selectDistinctOn([courses.code], { mapping: courseMappings, course: courses })
    .from(courseMappings)
    .innerJoin(courses, eq(courses.id, courseMappings.courseId))
    .where(
      and(
        eq(courseMappings.programmeId, filter.programmeId),
        filter.level === undefined ? undefined : eq(courseMappings.level, filter.level),
        sql`replace(lower(${courses.code}), ' ', '') like ${pattern}`,
      ),
    )
    .orderBy(asc(courses.code))
    .limit(SEARCH_LIMIT);
  return rows.map(({ course, mapping }) => toCourse(course, course.id, mapping.semester));
}

/** One page of departments with their school, as GET /department/all answers (results). */
export async function departmentPage(db: Database, page: number, pageSize: number) {
  const [total] = await db.select({ value: count() }).from(departments);
  const results = await db
    .select({ id: departments.id, name: departments.name, faculty: faculties.name })
    .from(departments)
    .innerJoin(faculties, eq(faculties.id, departments.facultyId))
    .orderBy(asc(departments.name))
    .limit(pageSize)
    .offset((page - 1) * pageSize);
  return { count: total?.value ?? 0, page, page_size: pageSize, results };
}
