import { eq, sql } from "drizzle-orm";
import { preparedQuery } from "../db/prepared.ts";
import type { Database } from "../db/client.ts";
import { courseOfferings, courses, payments, scoreAmendments, students } from "../db/schema.ts";
import type { MyResults } from "../../common/results/score-sheets.ts";
import { appliedAmendmentShown, type AppliedAmendmentRow } from "./amendments.ts";
import { semesterFee } from "./fee-gate.ts";
import { gradePublishedRecord, publishedRecordColumns, q } from "./published-record.ts";

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
 * Everything a student's results page needs, in one statement (decision 184): their published
 * record (published-record.ts), their credited school-fee options and their applied amendments.
 * Five reads one after another cost PostgreSQL twice the dashboard's CPU per visit.
 */
const publishedRecordOf = preparedQuery((db) =>
  db
    .select({
      ...publishedRecordColumns,
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
  if (!record) return { semesters: [], withheld: [] };
  const semesters = gradePublishedRecord(record, studentId);
  if (!semesters.length) return { semesters: [], withheld: [] };
  const paidBySession = requireFees ? new Map<string, string[]>() : null;
  for (const [session, option] of requireFees ? record.schoolFeesPaid : [])
    paidBySession!.set(session, [...(paidBySession!.get(session) ?? []), option]);
  const amendments = record.amendments.map((row) =>
    appliedAmendmentShown({ ...row, appliedAt: new Date(row.appliedAt) }),
  );
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
