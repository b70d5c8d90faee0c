import { and, eq } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { payments, students } from "../db/schema.ts";
import { paymentCompleteFrom } from "../../common/payments/fee-status.ts";
import type { MyResults } from "../../common/results/score-sheets.ts";
import { computeSemesters } from "./semester-results.ts";
import { publishedSemesters } from "./publication.ts";
import { appliedAmendmentsOf } from "./amendments.ts";

/** The school-fee options credited to a student in a session, at whatever level. */
async function paidOptions(db: Database, studentId: number, session: string) {
  const rows = await db
    .select({ option: payments.paymentOption })
    .from(payments)
    .where(
      and(
        eq(payments.studentId, studentId),
        eq(payments.session, session),
        eq(payments.status, "success"),
        // A transcript paid in the session is not its school fee (decision 182).
        eq(payments.kind, "school_fee"),
      ),
    );
  return rows.map((row) => row.option);
}

/**
 * Why a published semester is withheld from the student, or null: with fees required, the
 * session's fee paid in full opens both semesters, and its first installment the first
 * (decision 176).
 */
function feeHold(paid: readonly string[], semester: number, session: string) {
  const complete = paymentCompleteFrom(paid);
  if (complete === "full" || (complete === "part" && semester === 1)) return null;
  return complete === "part"
    ? `Your ${session} results for the second semester show once your second installment is paid.`
    : `Your ${session} results show once your school fees for ${session} are paid.`;
}

/**
 * A student's published results: each published semester of their programme, with its courses,
 * GPA, CGPA, standing and carry-overs; semesters held back by unpaid fees are named with why.
 */
export async function myResults(
  db: Database,
  studentId: number,
  requireFees: boolean,
): Promise<MyResults> {
  const [student] = await db
    .select({ programmeId: students.programmeId })
    .from(students)
    .where(eq(students.id, studentId));
  const published = await publishedSemesters(db, student!.programmeId);
  const isPublished = (key: { session: string; semester: number }) =>
    published.some((each) => each.session === key.session && each.semester === key.semester);
  const newest = [...published.map((each) => each.session)].sort().at(-1);
  if (!newest) return { semesters: [], withheld: [] };
  const [computed] = await computeSemesters(db, [studentId], {
    states: ["approved", "published"],
    schemeSession: newest,
    include: isPublished,
  });
  const semesters = computed!.semesters;
  const paidBySession = new Map<string, string[]>();
  if (requireFees) {
    for (const session of new Set(semesters.map((each) => each.session))) {
      paidBySession.set(session, await paidOptions(db, studentId, session));
    }
  }
  const amendments = await appliedAmendmentsOf(db, studentId);
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
    const paid = paidBySession.get(semester.session);
    const reason = paid ? feeHold(paid, semester.semester, semester.session) : null;
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
