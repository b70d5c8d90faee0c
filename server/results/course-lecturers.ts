import { and, arrayContains, asc, eq, inArray } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import {
  courseOfferings,
  courses,
  departmentHeads,
  departments,
  offeringLecturers,
  staff,
} from "../db/schema.ts";
import type { CourseLecturers } from "../../common/results/course-lecturers.ts";
import type { ResultStatus } from "../../common/results/score-sheets.ts";

/** Active accounts holding `role`, by name: whom the registry may choose. */
const activeWithRole = (db: Database, role: string) =>
  db
    .select({ id: staff.id, name: staff.name })
    .from(staff)
    .where(and(eq(staff.active, true), arrayContains(staff.roles, [role])))
    .orderBy(asc(staff.name));

/**
 * The registry's view of a semester's course offerings and their lecturers, with the people and
 * departments its forms choose from (GET /staff/results/offerings).
 */
export async function courseLecturers(
  db: Database,
  choice: { session: string; semester: number },
): Promise<CourseLecturers> {
  const [offerings, lecturers, hodCandidates, departmentRows] = await Promise.all([
    db
      .select({ offering: courseOfferings, course: courses, department: departments.name })
      .from(courseOfferings)
      .innerJoin(courses, eq(courses.id, courseOfferings.courseId))
      .innerJoin(departments, eq(departments.id, courseOfferings.departmentId))
      .where(
        and(
          eq(courseOfferings.session, choice.session),
          eq(courseOfferings.semester, choice.semester),
        ),
      )
      .orderBy(asc(courses.code)),
    activeWithRole(db, "lecturer"),
    activeWithRole(db, "hod"),
    db
      .select({ id: departments.id, name: departments.name, headId: staff.id, head: staff.name })
      .from(departments)
      .leftJoin(departmentHeads, eq(departmentHeads.departmentId, departments.id))
      .leftJoin(staff, eq(staff.id, departmentHeads.staffId))
      .orderBy(asc(departments.name)),
  ]);
  const ids = offerings.map((row) => row.offering.id);
  const teaching = ids.length
    ? await db
        .select({ offeringId: offeringLecturers.offeringId, id: staff.id, name: staff.name })
        .from(offeringLecturers)
        .innerJoin(staff, eq(staff.id, offeringLecturers.staffId))
        .where(inArray(offeringLecturers.offeringId, ids))
        .orderBy(asc(staff.name))
    : [];
  return {
    offerings: offerings.map(({ offering, course, department }) => ({
      id: offering.id,
      course_id: course.id,
      course_code: course.code,
      course_title: course.title,
      session: offering.session,
      semester: offering.semester,
      department_id: offering.departmentId,
      department,
      status: offering.status as ResultStatus,
      lecturers: teaching
        .filter((row) => row.offeringId === offering.id)
        .map(({ id, name }) => ({ id, name })),
    })),
    lecturers,
    hod_candidates: hodCandidates,
    departments: departmentRows.map((row) => ({
      id: row.id,
      name: row.name,
      head: row.headId === null ? null : { id: row.headId, name: row.head! },
    })),
  };
}
