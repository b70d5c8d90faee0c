import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Database, Transaction } from "../db/client.ts";
import {
  courseOfferings,
  courseRegistrations,
  courseScores,
  registrationApprovals,
  students,
} from "../db/schema.ts";
import { ApiError } from "../http/errors.ts";
import { recordAudit } from "../audit/audit.ts";
import {
  gradeCourse,
  scoreProblem,
  type CourseScore,
  type GradingScheme,
} from "../../common/results/grading.ts";
import type { ScoreSheet, ScoresToSave, ResultStatus } from "../../common/results/score-sheets.ts";
import { schemeFor } from "./grading-scheme.ts";
import { lockOffering, offeringWithCourse } from "./offerings.ts";

type Offering = NonNullable<Awaited<ReturnType<typeof offeringWithCourse>>>;

/** Joins a course registration to its semester's approval: only an approved one sits the exam. */
export const approvedRegistration = and(
  eq(registrationApprovals.studentId, courseRegistrations.studentId),
  eq(registrationApprovals.session, courseRegistrations.session),
  eq(registrationApprovals.semester, courseRegistrations.semester),
);

/**
 * The students a course's result is for: those registered for it in its session and semester
 * whose registration of that semester the adviser approved (decision 175). A registration still
 * waiting is not a place in the exam.
 */
async function roster(db: Database | Transaction, offering: Offering["offering"]) {
  return db
    .select({
      id: students.id,
      matricNo: students.matricNo,
      surname: students.surname,
      othername: students.othername,
    })
    .from(courseRegistrations)
    .innerJoin(students, eq(students.id, courseRegistrations.studentId))
    .innerJoin(registrationApprovals, approvedRegistration)
    .where(
      and(
        eq(courseRegistrations.courseId, offering.courseId),
        eq(courseRegistrations.session, offering.session),
        eq(courseRegistrations.semester, offering.semester),
      ),
    )
    .orderBy(asc(students.matricNo), asc(students.surname));
}

/** What a saved row is, for grading: null until the exam or a special mark is in. */
function scoreOf(row: { ca: number | null; exam: number | null; special: string | null }) {
  if (row.special) return { ca: row.ca, special: row.special } as CourseScore;
  if (row.exam === null) return null;
  return { ca: row.ca ?? 0, exam: row.exam } as CourseScore;
}

/** The score sheet of an offering, graded by its session's scheme. */
export async function readScoreSheet(
  db: Database,
  offeringId: number,
  mayEdit: (status: ResultStatus) => boolean,
): Promise<ScoreSheet> {
  const found = await offeringWithCourse(db, offeringId);
  if (!found) throw new ApiError(404, "There is no such course result.");
  const { offering, course } = found;
  const [scheme, people, saved] = await Promise.all([
    schemeFor(db, offering.session),
    roster(db, offering),
    db.select().from(courseScores).where(eq(courseScores.offeringId, offeringId)),
  ]);
  const byStudent = new Map(saved.map((row) => [row.studentId, row]));
  const status = offering.status as ResultStatus;
  return {
    offering: {
      id: offering.id,
      course_code: course.code,
      course_title: course.title,
      units: course.unit,
      session: offering.session,
      semester: offering.semester,
      status,
      return_note: offering.returnNote,
    },
    ca_max: scheme.caMax,
    exam_max: scheme.examMax,
    may_edit: mayEdit(status),
    rows: people.map((person) => {
      const row = byStudent.get(person.id);
      const score = row ? scoreOf(row) : null;
      const graded = score ? gradeCourse(scheme, score) : null;
      return {
        student_id: person.id,
        matric_no: person.matricNo,
        name: `${person.surname} ${person.othername}`,
        ca: row?.ca ?? null,
        exam: row?.exam ?? null,
        special: row?.special ?? null,
        total: graded?.total ?? null,
        grade: graded?.grade ?? null,
        point: graded?.point ?? null,
      };
    }),
  };
}

/** The value the row being inserted would have had, for an upsert's update. */
const sqlExcluded = (column: "ca" | "exam" | "special") => sql.raw(`excluded.${column}`);

const NOT_OPEN =
  "This result has been submitted to the head of department: it can no longer be changed here.";

/** Why a row cannot be saved by the scheme, or null. */
function entryProblem(scheme: GradingScheme, entry: ScoresToSave["scores"][number]) {
  const score: CourseScore =
    entry.special !== null
      ? { ca: entry.ca, special: entry.special }
      : { ca: entry.ca ?? 0, exam: entry.exam ?? 0 };
  return scoreProblem(scheme, score);
}

/**
 * Saves some of an open result's rows, all or none: every row must be a student on the roster and
 * within the scheme, or nothing is written. Audited with the values before and after.
 */
export async function saveScores(
  db: Database,
  staffId: number,
  offeringId: number,
  request: ScoresToSave,
  now: Date,
) {
  return db.transaction(async (tx) => {
    const offering = await lockOffering(tx, offeringId);
    if (offering.status !== "open") throw new ApiError(409, NOT_OPEN);
    const [scheme, people] = await Promise.all([
      schemeFor(tx, offering.session),
      roster(tx, offering),
    ]);
    const onRoster = new Map(people.map((person) => [person.id, person]));
    const fields: Record<string, string> = {};
    request.scores.forEach((entry, index) => {
      const problem = onRoster.has(entry.student_id)
        ? entryProblem(scheme, entry)
        : "This student is not registered (and approved) for this course.";
      if (problem) fields[`scores.${index}`] = problem;
    });
    const seen = new Set<number>();
    request.scores.forEach((entry, index) => {
      if (seen.has(entry.student_id)) fields[`scores.${index}`] = "This student is listed twice.";
      seen.add(entry.student_id);
    });
    const problems = Object.keys(fields).length;
    if (problems) {
      throw new ApiError(
        400,
        `${problems} ${problems === 1 ? "row needs" : "rows need"} correcting; nothing was saved.`,
        { fields },
      );
    }
    const ids = request.scores.map((entry) => entry.student_id);
    const before = await tx
      .select()
      .from(courseScores)
      .where(and(eq(courseScores.offeringId, offeringId), inArray(courseScores.studentId, ids)));
    const old = new Map(before.map((row) => [row.studentId, row]));
    const changed = request.scores.filter((entry) => {
      const was = old.get(entry.student_id);
      return (
        !was || was.ca !== entry.ca || was.exam !== entry.exam || was.special !== entry.special
      );
    });
    if (!changed.length) return { saved: 0 };
    await tx
      .insert(courseScores)
      .values(
        changed.map((entry) => ({
          offeringId,
          studentId: entry.student_id,
          ca: entry.ca,
          exam: entry.exam,
          special: entry.special,
          enteredBy: staffId,
          updatedAt: now,
        })),
      )
      .onConflictDoUpdate({
        target: [courseScores.offeringId, courseScores.studentId],
        set: {
          ca: sqlExcluded("ca"),
          exam: sqlExcluded("exam"),
          special: sqlExcluded("special"),
          enteredBy: staffId,
          updatedAt: now,
        },
      });
    const label = (studentId: number) =>
      onRoster.get(studentId)?.matricNo ?? `student ${studentId}`;
    const shown = (row: { ca: number | null; exam: number | null; special: string | null }) =>
      `${row.ca ?? "–"} / ${row.special ?? row.exam ?? "–"}`;
    await recordAudit(
      tx,
      {
        staffId,
        action: "course_result.scores",
        entity: "course_result",
        entityId: offeringId,
        before: Object.fromEntries(
          changed
            .filter((entry) => old.has(entry.student_id))
            .map((entry) => [label(entry.student_id), shown(old.get(entry.student_id)!)]),
        ),
        after: Object.fromEntries(changed.map((entry) => [label(entry.student_id), shown(entry)])),
      },
      now,
    );
    return { saved: changed.length };
  });
}

/**
 * Sends an open result to the head of department. Every student on the roster needs an exam score
 * or a special mark first; after this the lecturers can no longer change it.
 */
export async function submitResult(db: Database, staffId: number, offeringId: number, now: Date) {
  return db.transaction(async (tx) => {
    const offering = await lockOffering(tx, offeringId);
    if (offering.status !== "open") throw new ApiError(409, NOT_OPEN);
    const [people, saved] = await Promise.all([
      roster(tx, offering),
      tx.select().from(courseScores).where(eq(courseScores.offeringId, offeringId)),
    ]);
    if (!people.length)
      throw new ApiError(409, "No student is registered (and approved) for this course yet.");
    const done = new Set(
      saved.filter((row) => row.exam !== null || row.special !== null).map((row) => row.studentId),
    );
    const missing = people.filter((person) => !done.has(person.id));
    if (missing.length) {
      const named = missing.slice(0, 5).map((person) => person.matricNo ?? person.surname);
      throw new ApiError(
        409,
        `${missing.length} ${missing.length === 1 ? "student has" : "students have"} no exam score or special mark yet (${named.join(", ")}${missing.length > 5 ? ", …" : ""}). Enter them before submitting.`,
      );
    }
    await tx
      .update(courseOfferings)
      .set({ status: "submitted", submittedAt: now, submittedBy: staffId })
      .where(eq(courseOfferings.id, offeringId));
    await recordAudit(
      tx,
      {
        staffId,
        action: "course_result.submit",
        entity: "course_result",
        entityId: offeringId,
        before: { status: "open" },
        after: { status: "submitted", students: people.length },
      },
      now,
    );
  });
}
