import { and, asc, eq } from "drizzle-orm";
import type { Database, Transaction } from "../db/client.ts";
import {
  courseOfferings,
  courseRegistrations,
  courses,
  departments,
  programmes,
  registrationApprovals,
  resultPublications,
  students,
} from "../db/schema.ts";
import { ApiError } from "../http/errors.ts";
import { recordAudit } from "../audit/audit.ts";
import type { JobQueue } from "../jobs/api-jobs.ts";
import { textResultsPublished } from "../sms/results-news.ts";
import type {
  ApprovalOverview,
  ComputedResults,
  ResultStatus,
  PublishRequest,
  SemesterChoice,
} from "../../common/results/score-sheets.ts";
import { computeSemesters } from "./semester-results.ts";
import { approvedRegistration } from "./score-sheet.ts";

/** Results a student may be shown once the board has approved: approved by the head, or published. */
const FINAL = ["approved", "published"];

/**
 * The courses the programme's students registered for in the semester (approved registrations)
 * whose result is not yet approved by its head of department, with where each stands.
 */
async function waitingCourses(db: Database, { programme_id, session, semester }: SemesterChoice) {
  const rows = await db
    .selectDistinct({ code: courses.code, status: courseOfferings.status })
    .from(courseRegistrations)
    .innerJoin(students, eq(students.id, courseRegistrations.studentId))
    .innerJoin(registrationApprovals, approvedRegistration)
    .innerJoin(courses, eq(courses.id, courseRegistrations.courseId))
    .leftJoin(
      courseOfferings,
      and(
        eq(courseOfferings.courseId, courseRegistrations.courseId),
        eq(courseOfferings.session, courseRegistrations.session),
        eq(courseOfferings.semester, courseRegistrations.semester),
      ),
    )
    .where(
      and(
        eq(students.programmeId, programme_id),
        eq(courseRegistrations.session, session),
        eq(courseRegistrations.semester, semester),
      ),
    )
    .orderBy(asc(courses.code));
  return rows
    .filter((row) => !row.status || !FINAL.includes(row.status))
    .map((row) => ({ course_code: row.code, status: row.status ?? "no lecturer assigned" }));
}

/** The students of a programme with an approved registration in the semester. */
async function studentsOfSemester(
  db: Database,
  { programme_id, session, semester }: SemesterChoice,
) {
  return db
    .select({
      id: students.id,
      matricNo: students.matricNo,
      surname: students.surname,
      othername: students.othername,
      level: students.level,
    })
    .from(registrationApprovals)
    .innerJoin(students, eq(students.id, registrationApprovals.studentId))
    .where(
      and(
        eq(students.programmeId, programme_id),
        eq(registrationApprovals.session, session),
        eq(registrationApprovals.semester, semester),
      ),
    )
    .orderBy(asc(students.matricNo), asc(students.surname));
}

async function publicationOf(db: Database, { programme_id, session, semester }: SemesterChoice) {
  const [row] = await db
    .select()
    .from(resultPublications)
    .where(
      and(
        eq(resultPublications.programmeId, programme_id),
        eq(resultPublications.session, session),
        eq(resultPublications.semester, semester),
      ),
    );
  return row ?? null;
}

/**
 * A programme's semester as the exams office presents it to the academic board: each student's
 * GPA, CGPA, standing and carry-overs computed from approved results, the courses still waiting,
 * and whether it was published.
 */
export async function computedResults(
  db: Database,
  choice: SemesterChoice,
): Promise<ComputedResults> {
  const [programme] = await db
    .select()
    .from(programmes)
    .where(eq(programmes.id, choice.programme_id));
  if (!programme) throw new ApiError(404, "There is no such programme.");
  const [people, waiting, published] = await Promise.all([
    studentsOfSemester(db, choice),
    waitingCourses(db, choice),
    publicationOf(db, choice),
  ]);
  const computed = await computeSemesters(
    db,
    people.map((person) => person.id),
    {
      states: FINAL,
      schemeSession: choice.session,
      // Later semesters do not change this one's CGPA or standing.
      include: (key) =>
        key.session < choice.session ||
        (key.session === choice.session && key.semester <= choice.semester),
    },
  );
  const byId = new Map(computed.map((entry) => [entry.studentId, entry]));
  return {
    programme: programme.name,
    session: choice.session,
    semester: choice.semester,
    waiting,
    published: published
      ? {
          board_meeting_on: published.boardMeetingOn,
          minute_reference: published.minuteReference,
          published_at: published.publishedAt.toISOString(),
        }
      : null,
    students: people.map((person) => {
      const semester = byId
        .get(person.id)!
        .semesters.find(
          (each) => each.session === choice.session && each.semester === choice.semester,
        );
      return {
        student_id: person.id,
        matric_no: person.matricNo,
        name: `${person.surname} ${person.othername}`,
        level: person.level,
        units: semester?.units ?? 0,
        gpa: semester?.gpa ?? null,
        cgpa: semester?.cgpa ?? null,
        standing: semester?.standing ?? null,
        carry_overs: semester?.carryOvers.map((course) => course.courseCode) ?? [],
      };
    }),
  };
}

/**
 * Publishes a programme's semester on the academic board's approval: only when every course its
 * students registered for is approved by its head of department, and once. Audited; its students
 * are texted in the same transaction (decision 201).
 */
export async function publishResults(
  { db, jobs }: { db: Database; jobs: JobQueue },
  staffId: number,
  request: PublishRequest,
  now: Date,
) {
  const choice = request;
  const [programme] = await db
    .select()
    .from(programmes)
    .where(eq(programmes.id, choice.programme_id));
  if (!programme) throw new ApiError(400, "There is no such programme. Choose one from the list.");
  const waiting = await waitingCourses(db, choice);
  if (waiting.length) {
    const named = waiting.slice(0, 6).map((course) => `${course.course_code} (${course.status})`);
    throw new ApiError(
      409,
      `${waiting.length} ${waiting.length === 1 ? "course is" : "courses are"} not approved yet: ${named.join(", ")}${waiting.length > 6 ? ", …" : ""}. Publish when every course is approved.`,
    );
  }
  await db.transaction(async (tx) => {
    const inserted = await tx
      .insert(resultPublications)
      .values({
        programmeId: programme.id,
        session: choice.session,
        semester: choice.semester,
        boardMeetingOn: request.board_meeting_on,
        minuteReference: request.minute_reference,
        publishedBy: staffId,
        publishedAt: now,
      })
      .onConflictDoNothing()
      .returning();
    if (!inserted.length)
      throw new ApiError(
        409,
        `${programme.name}'s results for this semester are published already.`,
      );
    await recordAudit(
      tx,
      {
        staffId,
        action: "result_publication.publish",
        entity: "result_publication",
        entityId: inserted[0]!.id,
        after: {
          programme: programme.name,
          session: choice.session,
          semester: choice.semester,
          board_meeting_on: request.board_meeting_on,
          minute_reference: request.minute_reference,
        },
      },
      now,
    );
    await textResultsPublished(tx, jobs, inserted[0]!);
  });
}

/** Whether a programme's semester is published: what a student may see. */
export async function publishedSemesters(db: Database | Transaction, programmeId: number) {
  const rows = await db
    .select({ session: resultPublications.session, semester: resultPublications.semester })
    .from(resultPublications)
    .where(eq(resultPublications.programmeId, programmeId));
  return rows;
}

/**
 * Where every department's results stand for a semester, for the exams office: per department,
 * each course result and how many are being entered, with the head, approved. Published semesters
 * are listed per programme.
 */
export async function approvalOverview(
  db: Database,
  choice: { session: string; semester: number },
): Promise<ApprovalOverview> {
  const rows = await db
    .select({
      department: departments.name,
      id: courseOfferings.id,
      status: courseOfferings.status,
      code: courses.code,
      title: courses.title,
    })
    .from(courseOfferings)
    .innerJoin(departments, eq(departments.id, courseOfferings.departmentId))
    .innerJoin(courses, eq(courses.id, courseOfferings.courseId))
    .where(
      and(
        eq(courseOfferings.session, choice.session),
        eq(courseOfferings.semester, choice.semester),
      ),
    )
    .orderBy(asc(departments.name), asc(courses.code));
  const byDepartment = new Map<string, ApprovalOverview["departments"][number]>();
  for (const row of rows) {
    const entry = byDepartment.get(row.department) ?? {
      department: row.department,
      open: 0,
      submitted: 0,
      approved: 0,
      courses: [],
    };
    const status = row.status as ResultStatus;
    entry[status === "published" ? "approved" : status] += 1;
    entry.courses.push({ id: row.id, course_code: row.code, course_title: row.title, status });
    byDepartment.set(row.department, entry);
  }
  const published = await db
    .select({ programme: programmes.name, publishedAt: resultPublications.publishedAt })
    .from(resultPublications)
    .innerJoin(programmes, eq(programmes.id, resultPublications.programmeId))
    .where(
      and(
        eq(resultPublications.session, choice.session),
        eq(resultPublications.semester, choice.semester),
      ),
    )
    .orderBy(asc(programmes.name));
  return {
    departments: [...byDepartment.values()],
    published: published.map((row) => ({
      programme: row.programme,
      published_at: row.publishedAt.toISOString(),
    })),
  };
}
