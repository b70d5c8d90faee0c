import { eq, sql } from "drizzle-orm";
import { preparedQuery } from "../db/prepared.ts";
import type { Database } from "../db/client.ts";
import { resultPublications, students } from "../db/schema.ts";
import type { MyResults } from "../../common/results/score-sheets.ts";
import { computeSemesters } from "./semester-results.ts";
import { appliedAmendmentsOf } from "./amendments.ts";
import { paidOptionsBySession, semesterFee } from "./fee-gate.ts";

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

const publishedForStudent = preparedQuery((db) =>
  db
    .select({ session: resultPublications.session, semester: resultPublications.semester })
    .from(students)
    .innerJoin(resultPublications, eq(resultPublications.programmeId, students.programmeId))
    .where(eq(students.id, sql.placeholder("studentId")))
    .prepare("published_for_student"),
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
  // The semesters published for the student's programme, in the same read as the student.
  const published = await publishedForStudent(db).execute({ studentId });
  const isPublished = (key: { session: string; semester: number }) =>
    published.some((each) => each.session === key.session && each.semester === key.semester);
  const newest = [...published.map((each) => each.session)].sort().at(-1);
  if (!newest) return { semesters: [], withheld: [] };
  // Independent reads, together: on PostgreSQL they run at once.
  const [[computed], paidBySession, amendments] = await Promise.all([
    computeSemesters(db, [studentId], {
      states: ["approved", "published"],
      schemeSession: newest,
      include: isPublished,
    }),
    requireFees ? paidOptionsBySession(db, studentId) : null,
    appliedAmendmentsOf(db, studentId),
  ]);
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
