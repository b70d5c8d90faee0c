import { and, desc, eq } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { payments, students } from "../db/schema.ts";
import { placementColumns } from "../students/student-record.ts";
import { scheduledFee } from "../payments/fee-schedule.ts";
import { paymentCompleteFrom, type PaymentOption } from "../../common/payments/fee-status.ts";
import { registrationRecord } from "../courses/student-view.ts";
import { semesterStatus } from "../courses/advising/semester-review.ts";
import { myResults } from "../results/student-results.ts";

/**
 * What the USSD menu tells a student, read as the portal's own pages read it: the same fee
 * schedule, credited payments, registration record and published results.
 */
export async function ussdStudent(db: Database, studentId: number) {
  const [row] = await db
    .select({ student: students, placement: placementColumns() })
    .from(students)
    .where(eq(students.id, studentId));
  if (!row) return null;
  return { ...row.student, placement: row.placement };
}
export type UssdStudent = NonNullable<Awaited<ReturnType<typeof ussdStudent>>>;

/** The options a student could pay next this session, each with its amount, in the menu's order. */
export type PayableOption = { option: PaymentOption; amountKobo: number };

export type FeeFacts =
  | { kind: "no-session" }
  | { kind: "no-fee"; session: string }
  | {
      kind: "fees";
      session: string;
      level: number;
      paidKobo: number;
      owedKobo: number;
      payable: PayableOption[];
      latest: { amountKobo: number; status: string } | null;
    };

export async function feeFacts(db: Database, student: UssdStudent): Promise<FeeFacts> {
  const session = student.placement.currentSession;
  if (!session) return { kind: "no-session" };
  const where = { level: student.level, session };
  // The session's school-fee payments, newest first: what is credited at the student's level (as
  // creditedOptions reads it) and the latest payment, from one read.
  const rows = await db
    .select({
      option: payments.paymentOption,
      level: payments.level,
      status: payments.status,
      amountKobo: payments.amountKobo,
      paidAmountKobo: payments.paidAmountKobo,
    })
    .from(payments)
    .where(
      and(
        eq(payments.studentId, student.id),
        eq(payments.kind, "school_fee"),
        eq(payments.session, session),
      ),
    )
    .orderBy(desc(payments.generatedAt), desc(payments.id));
  const credited = rows.filter((row) => row.level === student.level && row.status === "success");
  const paid = credited.map((row) => row.option);
  const latest = rows[0];
  const complete = paymentCompleteFrom(paid);
  const next: PaymentOption[] =
    complete === "full" ? [] : complete === "part" ? ["second_installment"] : ["full", "part"];
  const payable: PayableOption[] = [];
  for (const option of next) {
    const fee = await scheduledFee(db, { option, ...where }, student.id);
    if (fee) payable.push({ option, amountKobo: fee.amountKobo });
  }
  if (complete !== "full" && payable.length === 0) return { kind: "no-fee", session };
  return {
    kind: "fees",
    session,
    level: student.level,
    paidKobo: credited.reduce((sum, row) => sum + (row.paidAmountKobo ?? row.amountKobo), 0),
    // What settles the session: the whole fee, or the second installment after the first.
    owedKobo: payable[0]?.amountKobo ?? 0,
    payable,
    latest: latest ? { amountKobo: latest.amountKobo, status: latest.status } : null,
  };
}

export type SemesterFacts = {
  semester: 1 | 2;
  units: number;
  status: "approved" | "returned" | "pending";
  note: string | null;
};

/** Each semester the student has registered courses in this session, with the adviser's word. */
export async function registrationFacts(db: Database, student: UssdStudent) {
  const session = student.placement.currentSession;
  if (!session) return null;
  const record = await registrationRecord(db, student.id, session);
  const semesters: SemesterFacts[] = [];
  for (const semester of [1, 2] as const) {
    const courses = record.data.filter((course) => course.semester === semester);
    if (!courses.length) continue;
    const returned = record.returns.find((each) => each.semester === semester);
    const status = semesterStatus({
      courses: courses.length,
      approved: record.approvals.some((each) => each.semester === semester),
      returned: Boolean(returned),
    });
    semesters.push({
      semester,
      units: courses.reduce((sum, course) => sum + Number(course.unit), 0),
      status: status === "not_submitted" ? "pending" : status,
      note: status === "returned" ? (returned?.note ?? null) : null,
    });
  }
  return { session, semesters };
}

/** The latest published semester the student may see, or why the latest is held back. */
export async function resultFacts(db: Database, studentId: number, requireFees: boolean) {
  const results = await myResults(db, studentId, requireFees);
  const latest = results.semesters[0];
  const withheld = results.withheld[0];
  if (withheld && (!latest || isLater(withheld, latest))) return { kind: "withheld" as const };
  if (!latest) return { kind: "none" as const };
  return {
    kind: "published" as const,
    session: latest.session,
    semester: latest.semester === 2 ? (2 as const) : (1 as const),
    gpa: latest.gpa,
    cgpa: latest.cgpa,
  };
}

const isLater = (
  a: { session: string; semester: number },
  b: { session: string; semester: number },
) => a.session > b.session || (a.session === b.session && a.semester > b.semester);
