import { and, desc, eq, inArray, or, sql } from "drizzle-orm";
import type { ApiDeps } from "../deps.ts";
import { preparedQuery } from "../db/prepared.ts";
import type { Database } from "../db/client.ts";
import {
  courseOfferings,
  courseScores,
  courses,
  departmentHeads,
  resultPublications,
  scoreAmendments,
  staff,
  students,
} from "../db/schema.ts";
import { ApiError } from "../http/errors.ts";
import { recordAudit } from "../audit/audit.ts";
import { scoreProblem, type CourseScore } from "../../common/results/grading.ts";
import type { AmendmentRequest, AmendmentRow } from "../../common/results/score-sheets.ts";
import { schemeFor } from "./grading-scheme.ts";

type Deps = Pick<ApiDeps, "db" | "jobs" | "publicOrigin">;
type Marks = { ca: number | null; exam: number | null; special: string | null };
const shown = (marks: Marks) => `${marks.ca ?? "–"} / ${marks.special ?? marks.exam ?? "–"}`;
const NO_SUCH = "There is no such amendment.";

/**
 * A lecturer proposes changing a published score (old → new, with a reason). Before publication a
 * score is changed on the sheet itself, or by the head of department returning it (decision 177).
 */
export async function proposeAmendment(
  db: Database,
  staffId: number,
  offeringId: number,
  request: AmendmentRequest,
  now: Date,
) {
  const [found] = await db
    .select({ offering: courseOfferings, programmeId: students.programmeId, score: courseScores })
    .from(courseScores)
    .innerJoin(courseOfferings, eq(courseOfferings.id, courseScores.offeringId))
    .innerJoin(students, eq(students.id, courseScores.studentId))
    .where(
      and(eq(courseScores.offeringId, offeringId), eq(courseScores.studentId, request.student_id)),
    );
  if (!found) throw new ApiError(404, "This student has no score on this course to amend.");
  const [published] = await db
    .select({ id: resultPublications.id })
    .from(resultPublications)
    .where(
      and(
        eq(resultPublications.programmeId, found.programmeId),
        eq(resultPublications.session, found.offering.session),
        eq(resultPublications.semester, found.offering.semester),
      ),
    );
  if (!published)
    throw new ApiError(
      409,
      "This result is not published yet: change it on the score sheet, or ask the head of department to return it.",
    );
  const scheme = await schemeFor(db, found.offering.session);
  const next: CourseScore =
    request.special !== null
      ? { ca: request.ca, special: request.special }
      : { ca: request.ca ?? 0, exam: request.exam ?? 0 };
  const problem =
    request.exam === null && request.special === null
      ? "Enter the new exam score or a special mark."
      : scoreProblem(scheme, next);
  if (problem) throw new ApiError(400, problem);
  const old = found.score;
  if (old.ca === request.ca && old.exam === request.exam && old.special === request.special)
    throw new ApiError(400, "The new score is the same as the published one.");
  const [row] = await db
    .insert(scoreAmendments)
    .values({
      offeringId,
      studentId: request.student_id,
      oldCa: old.ca,
      oldExam: old.exam,
      oldSpecial: old.special,
      newCa: request.ca,
      newExam: request.exam,
      newSpecial: request.special,
      reason: request.reason,
      proposedBy: staffId,
      proposedAt: now,
    })
    .onConflictDoNothing()
    .returning();
  if (!row)
    throw new ApiError(
      409,
      "An amendment of this student's score is already waiting for approval.",
    );
  await recordAudit(
    db,
    {
      staffId,
      action: "course_result.amendment_proposed",
      entity: "course_result",
      entityId: offeringId,
      before: { [String(request.student_id)]: shown(old) },
      after: { [String(request.student_id)]: shown(request), reason: request.reason },
    },
    now,
  );
  return row.id;
}

/** The amendment with its course, or a 404. */
async function amendmentWithCourse(db: Database, amendmentId: number) {
  const [row] = await db
    .select({ amendment: scoreAmendments, offering: courseOfferings, course: courses })
    .from(scoreAmendments)
    .innerJoin(courseOfferings, eq(courseOfferings.id, scoreAmendments.offeringId))
    .innerJoin(courses, eq(courses.id, courseOfferings.courseId))
    .where(eq(scoreAmendments.id, amendmentId));
  if (!row) throw new ApiError(404, NO_SUCH);
  return row;
}

async function assertHeads(db: Database, staffId: number, departmentId: number) {
  const [row] = await db
    .select()
    .from(departmentHeads)
    .where(
      and(eq(departmentHeads.departmentId, departmentId), eq(departmentHeads.staffId, staffId)),
    );
  if (!row) throw new ApiError(404, NO_SUCH);
}

/**
 * One step of the approval: the head of the course's department endorses or declines a proposed
 * amendment; the exams office then applies or declines an endorsed one. No one approves their own
 * proposal, and the exams office's approval must be another person's than the head's.
 */
export async function decideAmendment(
  deps: Deps,
  staffId: number,
  amendmentId: number,
  step: { as: "hod" | "exams"; approve: boolean; note: string | null },
  now: Date,
) {
  const { db } = deps;
  const { amendment, offering, course } = await amendmentWithCourse(db, amendmentId);
  if (step.as === "hod") await assertHeads(db, staffId, offering.departmentId);
  const waitingFor = step.as === "hod" ? "proposed" : "endorsed";
  if (amendment.status !== waitingFor)
    throw new ApiError(
      409,
      step.as === "hod"
        ? "This amendment is not waiting for the head of department."
        : "This amendment is not waiting for the exams office: the head of department must endorse it first.",
    );
  if (staffId === amendment.proposedBy || staffId === amendment.endorsedBy)
    throw new ApiError(403, "An amendment needs another person's approval than yours.");
  if (!step.approve && !step.note)
    throw new ApiError(400, "Say why the amendment is declined.", {
      fields: { note: "Say why the amendment is declined." },
    });

  await db.transaction(async (tx) => {
    const decided = step.approve
      ? step.as === "hod"
        ? { status: "endorsed", endorsedBy: staffId, endorsedAt: now }
        : { status: "applied", appliedBy: staffId, appliedAt: now }
      : { status: "declined", declinedBy: staffId, declinedAt: now, declineNote: step.note };
    const changed = await tx
      .update(scoreAmendments)
      .set(decided)
      .where(and(eq(scoreAmendments.id, amendmentId), eq(scoreAmendments.status, waitingFor)))
      .returning({ id: scoreAmendments.id });
    if (!changed.length) throw new ApiError(409, "This amendment was decided meanwhile.");
    const applying = step.approve && step.as === "exams";
    if (applying) {
      await tx
        .update(courseScores)
        .set({
          ca: amendment.newCa,
          exam: amendment.newExam,
          special: amendment.newSpecial,
          enteredBy: amendment.proposedBy,
          updatedAt: now,
        })
        .where(
          and(
            eq(courseScores.offeringId, amendment.offeringId),
            eq(courseScores.studentId, amendment.studentId),
          ),
        );
      const [student] = await tx
        .select()
        .from(students)
        .where(eq(students.id, amendment.studentId));
      if (student?.email) {
        await deps.jobs.sendMail(tx, {
          to: student.email,
          subject: `Your ${course.code} result for ${offering.session} was amended`,
          text: [
            `Dear ${student.othername},`,
            "",
            `Your published ${course.code} (${course.title}) result for ${offering.session}, semester ${offering.semester}, was amended after approval by the head of department and the exams office:`,
            "",
            `CA / exam: ${shown({ ca: amendment.oldCa, exam: amendment.oldExam, special: amendment.oldSpecial })} → ${shown({ ca: amendment.newCa, exam: amendment.newExam, special: amendment.newSpecial })}`,
            `Reason: ${amendment.reason}`,
            "",
            `Your GPA and CGPA are recomputed: see ${new URL("/results", deps.publicOrigin)}.`,
          ].join("\n"),
        });
      }
    }
    await recordAudit(
      tx,
      {
        staffId,
        ...(!step.approve
          ? { action: "course_result.amendment_declined" }
          : step.as === "hod"
            ? { action: "course_result.amendment_endorsed" }
            : { action: "course_result.amendment_applied" }),
        entity: "course_result",
        entityId: amendment.offeringId,
        before: { amendment: amendmentId, status: waitingFor },
        after: {
          amendment: amendmentId,
          ...(step.note ? { note: step.note } : {}),
          status: decided.status,
        },
      },
      now,
    );
  });
}

/**
 * The amendments waiting for the caller (by role), and the ones they proposed or decided, newest
 * first, each with who proposed, endorsed, applied or declined it.
 */
export async function amendmentsFor(
  db: Database,
  member: { id: number; roles: readonly string[] },
): Promise<AmendmentRow[]> {
  const headed = member.roles.includes("hod")
    ? (
        await db
          .select({ id: departmentHeads.departmentId })
          .from(departmentHeads)
          .where(eq(departmentHeads.staffId, member.id))
      ).map((row) => row.id)
    : [];
  const rows = await db
    .select({
      amendment: scoreAmendments,
      offering: courseOfferings,
      course: courses,
      matricNo: students.matricNo,
      surname: students.surname,
      othername: students.othername,
    })
    .from(scoreAmendments)
    .innerJoin(courseOfferings, eq(courseOfferings.id, scoreAmendments.offeringId))
    .innerJoin(courses, eq(courses.id, courseOfferings.courseId))
    .innerJoin(students, eq(students.id, scoreAmendments.studentId))
    // What the caller proposed or decided, and what waits for one of their roles: read in the
    // query, since amendments are kept for good and the table only grows.
    .where(
      or(
        eq(scoreAmendments.proposedBy, member.id),
        eq(scoreAmendments.endorsedBy, member.id),
        eq(scoreAmendments.appliedBy, member.id),
        eq(scoreAmendments.declinedBy, member.id),
        headed.length
          ? and(
              eq(scoreAmendments.status, "proposed"),
              inArray(courseOfferings.departmentId, headed),
            )
          : undefined,
        member.roles.includes("exams") ? eq(scoreAmendments.status, "endorsed") : undefined,
      ),
    )
    .orderBy(desc(scoreAmendments.proposedAt));
  const people = [
    ...new Set(
      rows.flatMap(({ amendment }) =>
        [
          amendment.proposedBy,
          amendment.endorsedBy,
          amendment.appliedBy,
          amendment.declinedBy,
        ].filter((id) => id !== null),
      ),
    ),
  ];
  const names = new Map(
    people.length
      ? (
          await db
            .select({ id: staff.id, name: staff.name })
            .from(staff)
            .where(inArray(staff.id, people))
        ).map((row) => [row.id, row.name])
      : [],
  );
  const nameOf = (id: number | null) => (id === null ? null : (names.get(id) ?? null));
  return rows.map(({ amendment, offering, course, matricNo, surname, othername }) => ({
    id: amendment.id,
    course_code: course.code,
    session: offering.session,
    semester: offering.semester,
    matric_no: matricNo,
    student_name: `${surname} ${othername}`,
    from: shown({ ca: amendment.oldCa, exam: amendment.oldExam, special: amendment.oldSpecial }),
    to: shown({ ca: amendment.newCa, exam: amendment.newExam, special: amendment.newSpecial }),
    reason: amendment.reason,
    status: amendment.status as AmendmentRow["status"],
    proposed_by: nameOf(amendment.proposedBy) ?? "",
    proposed_by_id: amendment.proposedBy,
    proposed_at: amendment.proposedAt.toISOString(),
    endorsed_by: nameOf(amendment.endorsedBy),
    endorsed_by_id: amendment.endorsedBy,
    applied_by: nameOf(amendment.appliedBy),
    declined_by: nameOf(amendment.declinedBy),
    decline_note: amendment.declineNote,
  }));
}

/** An applied amendment as the student's results page shows it (kept there for good), from its columns. */
export type AppliedAmendmentRow = {
  courseCode: string;
  session: string;
  semester: number;
  oldCa: number | null;
  oldExam: number | null;
  oldSpecial: string | null;
  newCa: number | null;
  newExam: number | null;
  newSpecial: string | null;
  reason: string;
  appliedAt: Date;
};

export function appliedAmendmentShown(row: AppliedAmendmentRow) {
  return {
    courseCode: row.courseCode,
    session: row.session,
    semester: row.semester,
    from: shown({ ca: row.oldCa, exam: row.oldExam, special: row.oldSpecial }),
    to: shown({ ca: row.newCa, exam: row.newExam, special: row.newSpecial }),
    reason: row.reason,
    appliedAt: row.appliedAt.toISOString(),
  };
}
