import { eq, inArray, sql, type SQL } from "drizzle-orm";
import type { Transaction } from "../db/client.ts";
import { courseRegistrations, courses, students } from "../db/schema.ts";
import { ApiError } from "../http/errors.ts";
import { MAX_UNITS } from "../../common/courses/registration-status.ts";

type Course = typeof courses.$inferSelect;

/** A course as locked, and the units the registry asks for. */
export type UnitChange = { course: Course; unit: number };

/**
 * Locks courses for a change, in id order as registration locks the courses it adds (FOR SHARE,
 * before the student), so the two always queue on the courses first and cannot deadlock. A
 * registration of a locked course waits, then reads the units this transaction leaves.
 */
export function lockCourses(tx: Transaction, where: SQL | undefined) {
  return tx.select().from(courses).where(where).orderBy(courses.id).for("no key update");
}

/** The course with `id`, locked as `lockCourses` locks; a 404 when there is none. */
export async function lockCourse(tx: Transaction, id: number) {
  const [course] = await lockCourses(tx, eq(courses.id, id));
  if (!course) throw new ApiError(404, `There is no course with id ${id}. Reload the list.`);
  return course;
}

/**
 * Why each change of units would be refused, by course id (docs/decisions/142): the slip, the cap
 * and the adviser's page read a course's units live, so a change reaches every registration of it.
 * Refused when it takes a student over the cap in a session, or changes a semester an adviser
 * approved. `changes` are checked together (one import file), and must come from `lockCourses`.
 */
export async function unitChangeRefusals(tx: Transaction, changes: readonly UnitChange[]) {
  const changing = changes.filter((change) => change.unit !== change.course.unit);
  const refusals = new Map<number, string>();
  if (changing.length === 0) return refusals;
  const ids = changing.map((change) => change.course.id);
  // The students who hold these courses, locked as register, reset and approve lock them: none of
  // them registers more, resets or is approved until this change is written or refused. Locked in
  // one statement, in id order, so two changes locking students never deadlock.
  await tx
    .select({ id: students.id })
    .from(students)
    .where(
      inArray(
        students.id,
        tx
          .select({ id: courseRegistrations.studentId })
          .from(courseRegistrations)
          .where(inArray(courseRegistrations.courseId, ids)),
      ),
    )
    .orderBy(students.id)
    .for("update");
  const units = changing.map((change) => change.unit);
  const { rows } = await tx.execute<{ course_id: number; over_cap: string; approved: string }>(sql`
    with changed as (
      select * from unnest(${sql.param(ids)}::integer[], ${sql.param(units)}::integer[]) as t(course_id, unit)
    ),
    affected as (
      select distinct r.student_id, r.session from course_registrations r join changed ch on ch.course_id = r.course_id
    ),
    totals as (
      select r.student_id, r.session, sum(coalesce(ch.unit, c.unit)) as units
      from course_registrations r
      join affected a on a.student_id = r.student_id and a.session = r.session
      join courses c on c.id = r.course_id
      left join changed ch on ch.course_id = r.course_id
      group by r.student_id, r.session
    )
    select r.course_id,
      count(distinct r.student_id) filter (where t.units > ${MAX_UNITS} and ch.unit > c.unit) as over_cap,
      count(distinct r.student_id) filter (where ap.student_id is not null) as approved
    from course_registrations r
    join changed ch on ch.course_id = r.course_id
    join courses c on c.id = r.course_id
    join totals t on t.student_id = r.student_id and t.session = r.session
    left join registration_approvals ap on ap.student_id = r.student_id and ap.session = r.session and ap.semester = r.semester
    group by r.course_id
  `);
  for (const row of rows) {
    const change = changing.find((candidate) => candidate.course.id === Number(row.course_id))!;
    const message = refusalMessage(change, Number(row.over_cap), Number(row.approved));
    if (message) refusals.set(change.course.id, message);
  }
  return refusals;
}

const studentCount = (count: number) => `${count} student${count === 1 ? "" : "s"}`;

function refusalMessage({ course, unit }: UnitChange, overCap: number, approved: number) {
  const reasons: string[] = [];
  if (overCap > 0) {
    reasons.push(
      `${studentCount(overCap)} would go over ${MAX_UNITS} units in a session: the change can be made once ${overCap === 1 ? "that student has" : "they have"} dropped courses to make room (by resetting the semester).`,
    );
  }
  if (approved > 0) {
    reasons.push(
      `${studentCount(approved)} ${approved === 1 ? "has" : "have"} it in a semester an adviser approved, and an approved semester cannot change: keep ${course.unit} units, or add the course under a new code for later sessions.`,
    );
  }
  if (reasons.length === 0) return null;
  return `${course.code} cannot change from ${course.unit} to ${unit} units. ${reasons.join(" ")}`;
}
