import { and, desc, eq, inArray, lt } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { courseOfferings, courses, departmentHeads, departments, staff } from "../db/schema.ts";
import { ApiError } from "../http/errors.ts";
import { recordAudit } from "../audit/audit.ts";
import type {
  GradeDistribution,
  ResultStatus,
  ReviewedResult,
  ScoreSheet,
} from "../../common/results/score-sheets.ts";
import { lockOffering, offeringWithCourse } from "./offerings.ts";
import { readScoreSheet } from "./score-sheet.ts";
import { schemeFor } from "./grading-scheme.ts";

const NOT_YOURS = "There is no such course result.";
/** What a head of department sees: results sent to them and those they approved. */
const REVIEWED: ResultStatus[] = ["submitted", "approved", "published"];

/** The registry names (or changes) a department's head; audited. */
export async function setDepartmentHead(
  db: Database,
  staffId: number,
  request: { department_id: number; staff_id: number },
  now: Date,
) {
  const [department] = await db
    .select()
    .from(departments)
    .where(eq(departments.id, request.department_id));
  if (!department)
    throw new ApiError(400, "There is no such department. Choose one from the list.");
  const [head] = await db.select().from(staff).where(eq(staff.id, request.staff_id));
  if (!head?.active || !head.roles.includes("hod"))
    throw new ApiError(
      400,
      "Choose a head from the list: they need an active head of department account.",
      {
        fields: { staff_id: "Choose a head from the list." },
      },
    );
  await db.transaction(async (tx) => {
    const [before] = await tx
      .select()
      .from(departmentHeads)
      .where(eq(departmentHeads.departmentId, department.id));
    await tx
      .insert(departmentHeads)
      .values({ departmentId: department.id, staffId: head.id })
      .onConflictDoUpdate({ target: departmentHeads.departmentId, set: { staffId: head.id } });
    await recordAudit(
      tx,
      {
        staffId,
        action: "department.head",
        entity: "department",
        entityId: department.id,
        before: { head: before?.staffId ?? null },
        after: { head: head.id },
      },
      now,
    );
  });
}

/** The departments a member heads. */
async function headedBy(db: Database, staffId: number) {
  const rows = await db
    .select({ departmentId: departmentHeads.departmentId })
    .from(departmentHeads)
    .where(eq(departmentHeads.staffId, staffId));
  return rows.map((row) => row.departmentId);
}

/** Refuses (as if it did not exist) a result outside the member's departments or not yet sent. */
async function assertReviews(db: Database, staffId: number, offeringId: number) {
  const found = await offeringWithCourse(db, offeringId);
  const departmentIds = await headedBy(db, staffId);
  if (
    !found ||
    !departmentIds.includes(found.offering.departmentId) ||
    !REVIEWED.includes(found.offering.status as ResultStatus)
  )
    throw new ApiError(404, NOT_YOURS);
  return found;
}

/** Counts per grade and the mean total (to one decimal place) of a sheet's graded rows. */
export function distributionOf(sheet: ScoreSheet, gradesInOrder: string[]): GradeDistribution {
  const counts = new Map<string, number>(gradesInOrder.map((grade) => [grade, 0]));
  const totals: number[] = [];
  for (const row of sheet.rows) {
    if (row.grade === null) continue;
    counts.set(row.grade, (counts.get(row.grade) ?? 0) + 1);
    if (row.total !== null) totals.push(row.total);
  }
  const mean = totals.length
    ? Math.round((totals.reduce((sum, total) => sum + total, 0) * 10) / totals.length) / 10
    : null;
  return { counts: [...counts].map(([grade, count]) => ({ grade, count })), mean };
}

/**
 * A submitted (or approved) result with its grade distribution, and the mean total of the same
 * course in up to three earlier sessions, so a head of department sees an unusual result at once.
 */
export async function reviewedResult(
  db: Database,
  staffId: number,
  offeringId: number,
): Promise<ReviewedResult> {
  const { offering } = await assertReviews(db, staffId, offeringId);
  const sheet = await readScoreSheet(db, offeringId, () => false);
  const scheme = await schemeFor(db, offering.session);
  const grades = [...scheme.bands.map((band) => band.grade), "ABS", "I", "S"];
  const earlier = await db
    .select({ id: courseOfferings.id, session: courseOfferings.session })
    .from(courseOfferings)
    .where(
      and(
        eq(courseOfferings.courseId, offering.courseId),
        lt(courseOfferings.session, offering.session),
        inArray(courseOfferings.status, ["approved", "published"]),
      ),
    )
    .orderBy(desc(courseOfferings.session))
    .limit(3);
  const history = await Promise.all(
    earlier.map(async (row) => ({
      session: row.session,
      mean: distributionOf(await readScoreSheet(db, row.id, () => false), grades).mean,
    })),
  );
  return { sheet, distribution: distributionOf(sheet, grades), earlier: history };
}

/** The head's list: their departments' results sent to them or approved, newest first. */
export async function resultsToReview(db: Database, staffId: number) {
  const departmentIds = await headedBy(db, staffId);
  if (!departmentIds.length) return [];
  const rows = await db
    .select({ offering: courseOfferings, course: courses })
    .from(courseOfferings)
    .innerJoin(courses, eq(courses.id, courseOfferings.courseId))
    .where(
      and(
        inArray(courseOfferings.departmentId, departmentIds),
        inArray(courseOfferings.status, REVIEWED),
      ),
    )
    .orderBy(desc(courseOfferings.session), courseOfferings.semester, courses.code);
  return rows.map(({ offering, course }) => ({
    id: offering.id,
    course_code: course.code,
    course_title: course.title,
    session: offering.session,
    semester: offering.semester,
    status: offering.status as ResultStatus,
    submitted_at: offering.submittedAt?.toISOString() ?? null,
  }));
}

const NOT_SUBMITTED =
  "This result is not waiting for your approval: it was approved or returned already.";

/** Approves a submitted result, or returns it to its lecturers with a note; audited. */
export async function decideResult(
  db: Database,
  staffId: number,
  offeringId: number,
  decision: { approve: true } | { approve: false; note: string },
  now: Date,
) {
  await assertReviews(db, staffId, offeringId);
  await db.transaction(async (tx) => {
    const offering = await lockOffering(tx, offeringId);
    if (offering.status !== "submitted") throw new ApiError(409, NOT_SUBMITTED);
    const change = decision.approve
      ? { status: "approved", approvedAt: now, approvedBy: staffId, returnNote: null }
      : { status: "open", returnNote: decision.note };
    await tx.update(courseOfferings).set(change).where(eq(courseOfferings.id, offeringId));
    await recordAudit(
      tx,
      {
        staffId,
        ...(decision.approve
          ? { action: "course_result.approve" }
          : { action: "course_result.return" }),
        entity: "course_result",
        entityId: offeringId,
        before: { status: "submitted" },
        after: decision.approve ? { status: "approved" } : { status: "open", note: decision.note },
      },
      now,
    );
  });
}
