import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Database, Transaction } from "../db/client.ts";
import { courseOfferings, courses, departments, offeringLecturers, staff } from "../db/schema.ts";
import { ApiError } from "../http/errors.ts";
import { recordAudit } from "../audit/audit.ts";
import { findSession } from "../courses/registration-rules.ts";
import type { LecturerAssignment, ResultStatus } from "../../common/results/score-sheets.ts";

const NOT_YOURS = "There is no such course result.";

/**
 * The registry assigns a course's lecturers for a session and semester, creating its offering the
 * first time; later calls replace the lecturers (a result keeps what they entered). Answers the
 * offering's id.
 */
export async function assignLecturers(
  db: Database,
  staffId: number,
  request: LecturerAssignment,
  now: Date,
): Promise<number> {
  await findSession(db, request.session);
  const [course] = await db.select().from(courses).where(eq(courses.id, request.course_id));
  if (!course) throw new ApiError(400, "There is no such course. Choose one from the list.");
  if (course.semester !== request.semester)
    throw new ApiError(
      400,
      `${course.code} is a semester ${course.semester} course; choose semester ${course.semester}.`,
      { fields: { semester: `Choose semester ${course.semester}.` } },
    );
  const [department] = await db
    .select({ id: departments.id })
    .from(departments)
    .where(eq(departments.id, request.department_id));
  if (!department)
    throw new ApiError(400, "There is no such department. Choose one from the list.");
  const lecturerIds = [...new Set(request.lecturer_ids)];
  const lecturers = await db
    .select({ id: staff.id, roles: staff.roles, active: staff.active })
    .from(staff)
    .where(inArray(staff.id, lecturerIds));
  const usable = lecturers.filter((row) => row.active && row.roles.includes("lecturer"));
  if (usable.length !== lecturerIds.length)
    throw new ApiError(
      400,
      "Choose lecturers from the list: each must have an active lecturer account.",
      {
        fields: { lecturer_ids: "Choose lecturers from the list." },
      },
    );

  return db.transaction(async (tx) => {
    const [offering] = await tx
      .insert(courseOfferings)
      .values({
        courseId: course.id,
        session: request.session,
        semester: request.semester,
        departmentId: department.id,
      })
      .onConflictDoUpdate({
        target: [courseOfferings.courseId, courseOfferings.session, courseOfferings.semester],
        set: { departmentId: department.id },
      })
      .returning();
    const before = await tx
      .select({ staffId: offeringLecturers.staffId })
      .from(offeringLecturers)
      .where(eq(offeringLecturers.offeringId, offering!.id));
    await tx.delete(offeringLecturers).where(eq(offeringLecturers.offeringId, offering!.id));
    await tx
      .insert(offeringLecturers)
      .values(lecturerIds.map((id) => ({ offeringId: offering!.id, staffId: id })));
    await recordAudit(
      tx,
      {
        staffId,
        action: "course_result.lecturers",
        entity: "course_result",
        entityId: offering!.id,
        before: { lecturers: before.map((row) => row.staffId).sort((a, b) => a - b) },
        after: {
          course: course.code,
          session: request.session,
          semester: request.semester,
          lecturers: [...lecturerIds].sort((a, b) => a - b),
        },
      },
      now,
    );
    return offering!.id;
  });
}

/** An offering with its course, as the score sheet heads it. */
export async function offeringWithCourse(db: Database | Transaction, offeringId: number) {
  const [row] = await db
    .select({ offering: courseOfferings, course: courses })
    .from(courseOfferings)
    .innerJoin(courses, eq(courses.id, courseOfferings.courseId))
    .where(eq(courseOfferings.id, offeringId));
  return row ?? null;
}

/** Refuses (as if it did not exist) an offering the lecturer is not assigned to. */
export async function assertTeaches(
  db: Database | Transaction,
  staffId: number,
  offeringId: number,
) {
  const [row] = await db
    .select({ offeringId: offeringLecturers.offeringId })
    .from(offeringLecturers)
    .where(
      and(eq(offeringLecturers.offeringId, offeringId), eq(offeringLecturers.staffId, staffId)),
    );
  if (!row) throw new ApiError(404, NOT_YOURS);
}

/** The offering, locked until the transaction ends: saving and submitting wait for each other. */
export async function lockOffering(tx: Transaction, offeringId: number) {
  const [row] = await tx
    .select()
    .from(courseOfferings)
    .where(eq(courseOfferings.id, offeringId))
    .for("update");
  if (!row) throw new ApiError(404, NOT_YOURS);
  return row as typeof row & { status: ResultStatus };
}

/** The offerings a lecturer teaches, newest session first. */
export async function offeringsTaughtBy(db: Database, staffId: number) {
  return db
    .select({ offering: courseOfferings, course: courses })
    .from(offeringLecturers)
    .innerJoin(courseOfferings, eq(courseOfferings.id, offeringLecturers.offeringId))
    .innerJoin(courses, eq(courses.id, courseOfferings.courseId))
    .where(eq(offeringLecturers.staffId, staffId))
    .orderBy(
      sql`${courseOfferings.session} desc`,
      asc(courseOfferings.semester),
      asc(courses.code),
    );
}
