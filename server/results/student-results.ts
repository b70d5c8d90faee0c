import { eq, getTableName, sql } from "drizzle-orm";
import { CasingCache } from "drizzle-orm/casing";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { preparedQuery } from "../db/prepared.ts";
import { DATABASE_CASING, type Database } from "../db/client.ts";
import {
  courseMappings,
  courseOfferings,
  courseScores,
  courses,
  gradingSchemes,
  payments,
  resultPublications,
  scoreAmendments,
  students,
} from "../db/schema.ts";
import type { MyResults } from "../../common/results/score-sheets.ts";
import type { GradingScheme } from "../../common/results/grading.ts";
import { gradeSemesters, type AttemptRow } from "./semester-results.ts";
import { appliedAmendmentShown, type AppliedAmendmentRow } from "./amendments.ts";
import { schemesFrom } from "./grading-scheme.ts";
import { semesterFee } from "./fee-gate.ts";

/**
 * Why a published semester is withheld from the student, or null: with fees required, the
 * session's fee paid in full opens both semesters, and its first installment the first
 * (decision 176).
 */
function feeHold(paid: readonly string[], semester: number, session: string) {
  const fee = semesterFee(paid, semester);
  if (fee === "paid") return null;
  return fee === "part"
    ? `Your ${session} results for the second semester show once your second installment is paid.`
    : `Your ${session} results show once your school fees for ${session} are paid.`;
}

/**
 * A column named with its table: drizzle leaves the table out in a query over one table, which
 * the subqueries below, over several, cannot have. Named as the database's casing names it.
 */
const casing = new CasingCache(DATABASE_CASING);
const q = (column: AnyPgColumn) =>
  sql`${sql.identifier(getTableName(column.table))}.${sql.identifier(casing.getColumnCasing(column))}`;

/**
 * Everything a student's results page needs, in one statement (decision 184): the semesters
 * published for their programme, their graded attempts in those semesters (as `graded_attempts`
 * reads them), the college's grading schemes, their credited school-fee options and their applied
 * amendments. Five reads one after another cost PostgreSQL twice the dashboard's CPU per visit.
 */
const publishedRecordOf = preparedQuery((db) =>
  db
    .select({
      published: sql<[string, number][]>`(
        select coalesce(json_agg(json_build_array(${q(resultPublications.session)}, ${q(resultPublications.semester)})), '[]')
        from ${resultPublications} where ${q(resultPublications.programmeId)} = ${q(students.programmeId)})`,
      attempts: sql<RecordAttempt[]>`(
        select coalesce(json_agg(json_build_object(
          'ca', ${q(courseScores.ca)}, 'exam', ${q(courseScores.exam)}, 'special', ${q(courseScores.special)},
          'session', ${q(courseOfferings.session)}, 'semester', ${q(courseOfferings.semester)},
          'code', ${q(courses.code)}, 'title', ${q(courses.title)}, 'units', ${q(courses.unit)},
          'planSemester', ${q(courses.semester)},
          'compulsory', coalesce((select bool_or(${q(courseMappings.compulsory)}) from ${courseMappings}
            where ${q(courseMappings.courseId)} = ${q(courses.id)} and ${q(courseMappings.programmeId)} = ${q(students.programmeId)}), false))), '[]')
        from ${courseScores}
        join ${courseOfferings} on ${q(courseOfferings.id)} = ${q(courseScores.offeringId)}
        join ${courses} on ${q(courses.id)} = ${q(courseOfferings.courseId)}
        where ${q(courseScores.studentId)} = ${q(students.id)}
          and ${q(courseOfferings.status)} in ('approved', 'published')
          and exists (select 1 from ${resultPublications}
            where ${q(resultPublications.programmeId)} = ${q(students.programmeId)}
              and ${q(resultPublications.session)} = ${q(courseOfferings.session)}
              and ${q(resultPublications.semester)} = ${q(courseOfferings.semester)}))`,
      schemes: sql<{ fromSession: string; scheme: GradingScheme }[]>`(
        select coalesce(json_agg(json_build_object('fromSession', ${q(gradingSchemes.fromSession)}, 'scheme', ${q(gradingSchemes.scheme)})
          order by ${q(gradingSchemes.fromSession)} desc), '[]')
        from ${gradingSchemes})`,
      // A transcript paid in the session is not its school fee (decision 182).
      schoolFeesPaid: sql<[string, string][]>`(
        select coalesce(json_agg(json_build_array(${q(payments.session)}, ${q(payments.paymentOption)})), '[]')
        from ${payments}
        where ${q(payments.studentId)} = ${q(students.id)} and ${q(payments.status)} = 'success' and ${q(payments.kind)} = 'school_fee')`,
      amendments: sql<(Omit<AppliedAmendmentRow, "appliedAt"> & { appliedAt: string })[]>`(
        select coalesce(json_agg(json_build_object(
          'courseCode', ${q(courses.code)}, 'session', ${q(courseOfferings.session)}, 'semester', ${q(courseOfferings.semester)},
          'oldCa', ${q(scoreAmendments.oldCa)}, 'oldExam', ${q(scoreAmendments.oldExam)}, 'oldSpecial', ${q(scoreAmendments.oldSpecial)},
          'newCa', ${q(scoreAmendments.newCa)}, 'newExam', ${q(scoreAmendments.newExam)}, 'newSpecial', ${q(scoreAmendments.newSpecial)},
          'reason', ${q(scoreAmendments.reason)}, 'appliedAt', ${q(scoreAmendments.appliedAt)})), '[]')
        from ${scoreAmendments}
        join ${courseOfferings} on ${q(courseOfferings.id)} = ${q(scoreAmendments.offeringId)}
        join ${courses} on ${q(courses.id)} = ${q(courseOfferings.courseId)}
        where ${q(scoreAmendments.studentId)} = ${q(students.id)} and ${q(scoreAmendments.status)} = 'applied')`,
    })
    .from(students)
    .where(eq(students.id, sql.placeholder("studentId")))
    .prepare("published_record_of_student"),
);

type RecordAttempt = Omit<AttemptRow, "studentId">;

/**
 * A student's published results: each published semester of their programme, with its courses,
 * GPA, CGPA, standing and carry-overs; semesters held back by unpaid fees are named with why.
 */
export async function myResults(
  db: Database,
  studentId: number,
  requireFees: boolean,
): Promise<Omit<MyResults, "verify_url">> {
  const [record] = await publishedRecordOf(db).execute({ studentId });
  const newest = record?.published
    .map(([session]) => session)
    .sort()
    .at(-1);
  if (!record || !newest) return { semesters: [], withheld: [] };
  const attempts = record.attempts.map((attempt) => ({ ...attempt, studentId }));
  const schemes = schemesFrom(record.schemes, [
    ...attempts.map((attempt) => attempt.session),
    newest,
  ]);
  const [computed] = gradeSemesters(attempts, schemes, [studentId], newest);
  const paidBySession = requireFees ? new Map<string, string[]>() : null;
  for (const [session, option] of requireFees ? record.schoolFeesPaid : [])
    paidBySession!.set(session, [...(paidBySession!.get(session) ?? []), option]);
  const amendments = record.amendments.map((row) =>
    appliedAmendmentShown({ ...row, appliedAt: new Date(row.appliedAt) }),
  );
  const semesters = computed!.semesters;
  const amendmentsOf = (code: string, key: { session: string; semester: number }) =>
    amendments
      .filter(
        (each) =>
          each.courseCode === code &&
          each.session === key.session &&
          each.semester === key.semester,
      )
      .sort((a, b) => a.appliedAt.localeCompare(b.appliedAt))
      .map((each) => ({
        from: each.from,
        to: each.to,
        reason: each.reason,
        applied_at: each.appliedAt,
      }));
  const shown: MyResults["semesters"] = [];
  const withheld: MyResults["withheld"] = [];
  for (const semester of semesters) {
    const reason = paidBySession
      ? feeHold(paidBySession.get(semester.session) ?? [], semester.semester, semester.session)
      : null;
    if (reason) {
      withheld.push({ session: semester.session, semester: semester.semester, reason });
      continue;
    }
    shown.push({
      session: semester.session,
      semester: semester.semester,
      gpa: semester.gpa,
      cgpa: semester.cgpa,
      units: semester.units,
      cumulative_units: semester.cumulativeUnits,
      standing: semester.standing,
      carry_overs: semester.carryOvers.map((course) => course.courseCode),
      courses: semester.courses.map((course) => ({
        ...course,
        amendments: amendmentsOf(course.course_code, semester),
      })),
    });
  }
  return { semesters: shown.reverse(), withheld: withheld.reverse() };
}
