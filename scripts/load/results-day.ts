import { randomBytes } from "node:crypto";
import { and, arrayContains, eq, inArray, sql } from "drizzle-orm";
import type { Database } from "../../server/db/client.ts";
import {
  courseMappings,
  courseOfferings,
  courseRegistrations,
  courseScores,
  courses,
  payments,
  registrationApprovals,
  resultPublications,
  staff,
  students,
} from "../../server/db/schema.ts";
import { computedResults, publishResults } from "../../server/results/publication.ts";
import { rowsOnlyJobs } from "../../server/jobs/rows-only-jobs.ts";
import { approvedRegistration } from "../../server/results/score-sheet.ts";
import { StepFailed } from "./browser.ts";
import {
  chooseWithinCap,
  playVisit,
  signInToDashboard,
  type JourneyOptions,
  type JourneyOutcome,
  type StudentAccount,
} from "./journey.ts";
import { inChunks, type CheckResult } from "./checks.ts";

/** The semester results day publishes: the first of the session the accounts were made in. */
const SEMESTER = 1 as const;

/** Seconds a person spends on each page, at think factor 1. */
const THINK_SECONDS = { typeCredentials: 6, readDashboard: 3, readResults: 20 };

/** What a results-day student should see: the GPA their published semester computes to. */
export type ResultsExpected = Map<number, string>;

/**
 * Brings the accounts' first semester to the morning after publication, written straight into
 * the database before the portal starts: each student registered for their level's courses within
 * the cap and approved, every course of their programmes scored and approved by its head, the
 * school fee paid (results open only then, decision 176), and each programme's semester
 * published through the exams office's own `publishResults`. Answers each student's GPA as
 * `computedResults` gives it, for the journey to find on the page.
 */
export async function prepareResultsDay(
  db: Database,
  accounts: readonly StudentAccount[],
  progress: (message: string) => void,
): Promise<ResultsExpected> {
  const session = accounts[0]!.session;
  const ids = accounts.map((account) => account.id);
  const people = await inChunks(ids, (chunk) =>
    db
      .select({
        id: students.id,
        programmeId: students.programmeId,
        departmentId: students.departmentId,
        level: students.level,
      })
      .from(students)
      .where(inArray(students.id, chunk)),
  );
  const programmeIds = [...new Set(people.map((person) => person.programmeId))];
  const plan = await db
    .select({
      programmeId: courseMappings.programmeId,
      level: courseMappings.level,
      courseId: courses.id,
      unit: courses.unit,
    })
    .from(courseMappings)
    .innerJoin(courses, eq(courses.id, courseMappings.courseId))
    .where(
      and(inArray(courseMappings.programmeId, programmeIds), eq(courseMappings.semester, SEMESTER)),
    );

  progress(`Registering ${people.length} students for their first-semester courses, approved…`);
  const registrations = people.flatMap((person) =>
    chooseWithinCap(
      plan.filter((row) => row.programmeId === person.programmeId && row.level === person.level),
    ).map((row) => ({
      studentId: person.id,
      courseId: row.courseId,
      session,
      level: person.level,
      semester: SEMESTER,
    })),
  );
  for (let start = 0; start < registrations.length; start += 2_000)
    await db
      .insert(courseRegistrations)
      .values(registrations.slice(start, start + 2_000))
      .onConflictDoNothing();
  for (let start = 0; start < people.length; start += 2_000)
    await db
      .insert(registrationApprovals)
      .values(
        people.slice(start, start + 2_000).map((person) => ({
          studentId: person.id,
          session,
          semester: SEMESTER,
          approvedBy: "Course Adviser",
        })),
      )
      .onConflictDoNothing();

  const [lecturer] = await db
    .select({ id: staff.id })
    .from(staff)
    .where(arrayContains(staff.roles, ["lecturer"]))
    .limit(1);
  const [examsOfficer] = await db
    .select({ id: staff.id })
    .from(staff)
    .where(arrayContains(staff.roles, ["exams"]))
    .limit(1);
  if (!lecturer || !examsOfficer)
    throw new Error("The demo college has no lecturer or exams officer: was the demo seed loaded?");

  progress("Scoring and approving every course those programmes' students took…");
  // Every approved registration of the programmes' students in the semester, the demo students'
  // too: a programme publishes only when all of its courses are approved.
  const taken = db
    .selectDistinct({ courseId: courseRegistrations.courseId, departmentId: students.departmentId })
    .from(courseRegistrations)
    .innerJoin(students, eq(students.id, courseRegistrations.studentId))
    .innerJoin(registrationApprovals, approvedRegistration)
    .where(
      and(
        inArray(students.programmeId, programmeIds),
        eq(courseRegistrations.session, session),
        eq(courseRegistrations.semester, SEMESTER),
      ),
    );
  const courseDepartments = new Map((await taken).map((row) => [row.courseId, row.departmentId]));
  await db
    .insert(courseOfferings)
    .values(
      [...courseDepartments].map(([courseId, departmentId]) => ({
        courseId,
        session,
        semester: SEMESTER,
        departmentId,
      })),
    )
    .onConflictDoNothing();
  const offerings = await db
    .select({ id: courseOfferings.id, courseId: courseOfferings.courseId })
    .from(courseOfferings)
    .where(
      and(
        eq(courseOfferings.session, session),
        eq(courseOfferings.semester, SEMESTER),
        inArray(courseOfferings.courseId, [...courseDepartments.keys()]),
      ),
    );
  const offeringIds = offerings.map((offering) => offering.id);
  // Marks that vary from student to student and course to course, the same in every run.
  await db.execute(sql`
    insert into ${courseScores} (offering_id, student_id, ca, exam, entered_by, updated_at)
    select o.id, r.student_id, 10 + (r.student_id * 7 + o.id) % 31, 15 + (r.student_id * 13 + o.id * 3) % 46, ${lecturer.id}, now()
    from ${courseOfferings} o
    join ${courseRegistrations} r on r.course_id = o.course_id and r.session = o.session and r.semester = o.semester
    join ${registrationApprovals} a on a.student_id = r.student_id and a.session = r.session and a.semester = r.semester
    where o.id in (${sql.join(offeringIds, sql`, `)})
    on conflict do nothing`);
  await db
    .update(courseOfferings)
    .set({ status: "approved", approvedAt: new Date() })
    .where(inArray(courseOfferings.id, offeringIds));

  progress("Marking the school fee paid and publishing each programme's semester…");
  const run = randomBytes(3).toString("hex");
  for (let start = 0; start < accounts.length; start += 2_000)
    await db.insert(payments).values(
      accounts.slice(start, start + 2_000).map((account) => ({
        reference: `RESULTS-DAY-${run}-${account.id}`,
        studentId: account.id,
        paymentOption: "full",
        level: account.level,
        session,
        amountKobo: 1_000_000,
        status: "success",
        paidAt: new Date(),
        channel: "card",
        paidAmountKobo: 1_000_000,
        paidCurrency: "NGN",
      })),
    );
  const expected: ResultsExpected = new Map();
  const mine = new Set(ids);
  for (const programmeId of programmeIds) {
    const choice = { programme_id: programmeId, session, semester: SEMESTER };
    await publishResults(
      { db, jobs: rowsOnlyJobs },
      examsOfficer.id,
      { ...choice, board_meeting_on: "2025-03-14", minute_reference: "AB/LOAD/1" },
      new Date(),
    );
    for (const student of (await computedResults(db, choice)).students)
      if (mine.has(student.student_id) && student.gpa !== null)
        expected.set(student.student_id, student.gpa.toFixed(2));
  }
  return expected;
}

/**
 * One student on the morning results come out: sign in, the dashboard, their results, sign out.
 * The results page must show the GPA the exams office computed for them.
 */
export function playResultsDay(
  account: StudentAccount,
  options: JourneyOptions & { expected: ResultsExpected },
): Promise<JourneyOutcome> {
  return playVisit(account, options, async ({ browser, think, at }) => {
    await signInToDashboard(browser, account, at, () => think(THINK_SECONDS.typeCredentials));
    await think(THINK_SECONDS.readDashboard);
    const gpa = options.expected.get(account.id);
    if (gpa === undefined)
      throw new StepFailed("results page", "no GPA was published for this student");
    await browser.navigate("results page", at("/results"), { status: 200, marker: `>${gpa}<` });
    await think(THINK_SECONDS.readResults);
    await browser.navigate(
      "sign out",
      at("/logout"),
      { status: 303, location: "/login?signed_out=1" },
      { method: "POST" },
    );
  });
}

/** After results day: students only read, so every published semester is as it was published. */
export async function checkResultsDay(
  db: Database,
  run: { accounts: readonly StudentAccount[]; expected: ResultsExpected; scoresBefore: number },
): Promise<CheckResult[]> {
  const [scores] = await db.select({ n: sql<number>`count(*)::int` }).from(courseScores);
  const [published] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(resultPublications)
    .where(eq(resultPublications.session, run.accounts[0]?.session ?? ""));
  return [
    {
      name: "every student has a published GPA",
      ok: run.expected.size === run.accounts.length,
      detail: `${run.expected.size} of ${run.accounts.length}`,
    },
    {
      name: "reading results changes no score",
      ok: Number(scores!.n) === run.scoresBefore,
      detail: `${scores!.n} scores after, ${run.scoresBefore} before`,
    },
    {
      name: "the semester stays published",
      ok: Number(published!.n) > 0,
      detail: `${published!.n} programmes published`,
    },
  ];
}

/** How many scores the database holds, for `checkResultsDay`. */
export async function countScores(db: Database) {
  const [scores] = await db.select({ n: sql<number>`count(*)::int` }).from(courseScores);
  return Number(scores!.n);
}
