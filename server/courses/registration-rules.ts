import { and, eq, inArray, sql } from "drizzle-orm";
import type { Database, Transaction } from "../db/client.ts";
import { preparedQuery } from "../db/prepared.ts";
import {
  academicSessions,
  courseRegistrations,
  courses,
  registrationApprovals,
  registrationResubmissions,
  registrationReturns,
} from "../db/schema.ts";
import { ApiError } from "../http/errors.ts";
import { semesterLabel } from "../../common/courses/selection.ts";
import { collegeDate } from "../../common/format/dates.ts";
import {
  windowRefusal,
  type RegistrationWindow,
} from "../../common/courses/registration-window.ts";

type Queryable = Database | Transaction;

const sessionNamed = preparedQuery((db) =>
  db
    .select()
    .from(academicSessions)
    .where(eq(academicSessions.name, sql.placeholder("name")))
    .prepare("session_named"),
);

const approvalsOf = preparedQuery((db) =>
  db
    .select({ semester: registrationApprovals.semester })
    .from(registrationApprovals)
    .where(
      and(
        eq(registrationApprovals.studentId, sql.placeholder("studentId")),
        eq(registrationApprovals.session, sql.placeholder("session")),
      ),
    )
    .prepare("registration_approvals_of"),
);

/** The session by name; a name that is not a session is the student's mistake (400). */
export async function findSession(db: Queryable, name: string) {
  const [session] = await sessionNamed(db).execute({ name });
  if (!session) throw noSuchSession(name);
  return session;
}

export function noSuchSession(name: string) {
  return new ApiError(400, `There is no ${name} session. Choose a session from the list.`, {
    fields: { session: "Choose a session from the list." },
  });
}

/** Refuses unless the registry has opened the session's registration and today is within its dates. */
export function assertModifiable(session: RegistrationWindow, now: Date) {
  const refusal = windowRefusal(session, collegeDate(now));
  if (refusal) throw new ApiError(403, refusal);
}

/** The semesters of a session the Course Advisor has approved for the student. */
export async function approvedSemesters(db: Queryable, studentId: number, session: string) {
  const rows = await approvalsOf(db).execute({ studentId, session });
  return new Set(rows.map((row) => row.semester));
}

export function frozenSemesterError(semester: 1 | 2, session: string) {
  return new ApiError(
    403,
    `The Course Advisor has approved your ${semesterLabel(semester)} registration for ${session}; no courses can be added to it.`,
  );
}

/**
 * The student changed semesters an adviser had returned: they are pending again, waiting for the
 * adviser, who sees them marked as changed since the return (decision 159). The note stays in the audit log.
 */
export async function withdrawReturns(
  tx: Transaction,
  studentId: number,
  session: string,
  semesters: readonly (1 | 2)[],
) {
  if (semesters.length === 0) return;
  const withdrawn = await tx
    .delete(registrationReturns)
    .where(
      and(
        eq(registrationReturns.studentId, studentId),
        eq(registrationReturns.session, session),
        inArray(registrationReturns.semester, [...new Set(semesters)]),
      ),
    )
    .returning({ semester: registrationReturns.semester });
  if (withdrawn.length === 0) return;
  await tx
    .insert(registrationResubmissions)
    .values(withdrawn.map(({ semester }) => ({ studentId, session, semester })))
    .onConflictDoNothing();
}

/**
 * The student's registered courses in a session, with their units and semesters: for the cap and
 * the carry-overs, in registration and in the adviser's approval.
 */
export const registeredUnits = preparedQuery((db) =>
  db
    .select({
      course_id: courseRegistrations.courseId,
      unit: courses.unit,
      semester: courseRegistrations.semester,
    })
    .from(courseRegistrations)
    .innerJoin(courses, eq(courses.id, courseRegistrations.courseId))
    .where(
      and(
        eq(courseRegistrations.studentId, sql.placeholder("studentId")),
        eq(courseRegistrations.session, sql.placeholder("session")),
      ),
    )
    .prepare("registered_units"),
);
