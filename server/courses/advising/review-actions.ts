import { and, asc, eq } from "drizzle-orm";
import type { Database, Transaction } from "../../db/client.ts";
import type { ApiDeps } from "../../deps.ts";
import {
  courseRegistrations,
  courses,
  registrationApprovals,
  registrationResubmissions,
  registrationReturns,
  staff,
  students,
} from "../../db/schema.ts";
import { ApiError } from "../../http/errors.ts";
import { approvedSemesters, findSession, registeredUnits } from "../registration-rules.ts";
import { carryOversFor } from "../carry-overs.ts";
import { carryOverPlan } from "../../../common/courses/carry-overs.ts";
import { lockStudent } from "../../students/student-lock.ts";
import { recordAudit } from "../../audit/audit.ts";
import type { SignedInStaff } from "../../staff/staff-sessions.ts";
import { semesterLabel } from "../../../common/courses/selection.ts";
import { returnRefusal } from "../../../common/courses/registration-window.ts";
import { collegeDate } from "../../../common/format/dates.ts";
import {
  missingCarryOversAtApproval,
  reopenRefusal,
  type ApproveRequest,
  type ReopenRequest,
  type ReturnRequest,
} from "../../../common/courses/advising.ts";
import { assertAdvises, readsEveryDepartment } from "./adviser-scope.ts";
import { reopenedMail } from "./reopen-mail.ts";
import { internationalPhone } from "../../sms/phone-numbers.ts";
import { registrationApprovedText, registrationReturnedText } from "../../sms/templates.ts";
import { wantsSmsNews } from "../../sms/preferences.ts";
import { semesterStatus } from "./semester-review.ts";

type Semester = { studentId: number; session: string; semester: 1 | 2 };

type PerSemester =
  typeof registrationApprovals | typeof registrationReturns | typeof registrationResubmissions;
const bySemester = (table: PerSemester, { studentId, session, semester }: Semester) =>
  and(eq(table.studentId, studentId), eq(table.session, session), eq(table.semester, semester));

/** What a semester holds right now, read inside the locked transaction. */
async function semesterFacts(tx: Transaction, { studentId, session, semester }: Semester) {
  const bySemester = <T extends typeof registrationApprovals | typeof registrationReturns>(
    table: T,
  ) =>
    and(eq(table.studentId, studentId), eq(table.session, session), eq(table.semester, semester));
  // One after the other: a transaction is one connection, which runs one query at a time anyway
  // (pg queues concurrent ones today and will refuse them from pg 9).
  const registered = await tx
    .select({ id: courseRegistrations.id, code: courses.code, unit: courses.unit })
    .from(courseRegistrations)
    .innerJoin(courses, eq(courses.id, courseRegistrations.courseId))
    .where(
      and(
        eq(courseRegistrations.studentId, studentId),
        eq(courseRegistrations.session, session),
        eq(courseRegistrations.semester, semester),
      ),
    )
    .orderBy(asc(courses.code));
  const [approval] = await tx
    .select()
    .from(registrationApprovals)
    .where(bySemester(registrationApprovals));
  const [returned] = await tx
    .select()
    .from(registrationReturns)
    .where(bySemester(registrationReturns));
  const status = semesterStatus({
    courses: registered.length,
    approved: Boolean(approval),
    returned: Boolean(returned),
  });
  return { registered, status, note: returned?.note ?? null };
}

/**
 * Locks the student's row (as registration and reset do), so a review and the student's own change
 * run one after the other; then checks the adviser's scope and the semester's state.
 */
async function reviewable(
  tx: Transaction,
  member: SignedInStaff,
  target: Semester,
  action: "approve" | "return",
) {
  const student = await lockStudent(tx, target.studentId);
  await assertAdvises(tx, member, target.studentId);
  const session = await findSession(tx, target.session);
  const facts = await semesterFacts(tx, target);
  const what = `${semesterLabel(target.semester)} registration for ${target.session}`;
  if (facts.status === "not_submitted")
    throw new ApiError(
      409,
      `The student has no ${semesterLabel(target.semester)} courses registered for ${target.session}; there is nothing to ${action}.`,
    );
  if (facts.status === "approved")
    throw new ApiError(
      409,
      `The ${what} is already approved; an approved registration cannot change.`,
    );
  const studentName = student ? `${student.surname} ${student.othername}` : "the student";
  return { session, facts, studentName, phone: student?.phone };
}

/**
 * Texts the student what became of a semester, in the transaction that decided it, unless they
 * chose not to have such news or replied STOP (decision 200).
 * Keyed by the moment it was decided: approved, reopened and approved again is two messages.
 */
async function textTheStudent(
  tx: Transaction,
  jobs: ApiDeps["jobs"],
  target: Semester,
  phone: string | undefined,
  outcome: "approved" | "returned",
  at: Date,
) {
  // Read in the transaction that decides, under the student's lock: a choice saved a moment ago holds.
  if (!phone || !(await wantsSmsNews(tx, target.studentId, "registration_news"))) return;
  const semester = semesterLabel(target.semester);
  await jobs.sendSms(tx, {
    key: `registration-${outcome}:${target.studentId}:${target.session}:${target.semester}:${at.getTime()}`,
    kind: `registration-${outcome}`,
    studentId: target.studentId,
    to: internationalPhone(phone),
    text:
      outcome === "approved"
        ? registrationApprovedText(semester, target.session)
        : registrationReturnedText(semester, target.session),
  });
}

/**
 * The carry-overs the semester must include and lacks (decision 185), read after the student's
 * lock on what the transaction sees: the student's registrations as they are now, and the results
 * published by now. A publication committed after this read is one the approval came before, as
 * when a semester is approved before its carry-over is known (decision 180).
 */
async function carryOversMissing(
  tx: Transaction,
  target: Semester,
  session: Awaited<ReturnType<typeof findSession>>,
  at: Date,
) {
  const [student] = await tx
    .select({ id: students.id, programmeId: students.programmeId })
    .from(students)
    .where(eq(students.id, target.studentId));
  const carryOvers = await carryOversFor(tx, student!, target.session);
  if (carryOvers.length === 0) return null;
  const bySession = { studentId: target.studentId, session: target.session };
  const registered = await registeredUnits(tx).execute(bySession);
  const approved = await approvedSemesters(tx, target.studentId, target.session);
  const plan = carryOverPlan(carryOvers, registered, approved);
  return missingCarryOversAtApproval(plan, target.semester, session, collegeDate(at));
}

const sameIds = (held: number[], shown: number[]) => {
  const sorted = (ids: number[]) => [...new Set(ids)].sort((a, b) => a - b).join(",");
  return sorted(held) === sorted(shown);
};

const auditedRecord = (target: Semester) => ({
  entity: "course_registration",
  entityId: `${target.studentId}:${target.session}:${target.semester}`,
});

/** Approves a semester: it freezes for the student (no reset, no more courses) and shows the adviser's name. */
export async function approveSemester(
  { db, jobs }: Pick<ApiDeps, "db" | "jobs">,
  member: SignedInStaff,
  studentId: number,
  request: ApproveRequest,
  at: Date,
) {
  const target = { studentId, session: request.session, semester: request.semester };
  return db.transaction(async (tx) => {
    const { session, facts, studentName, phone } = await reviewable(tx, member, target, "approve");
    // Read after the student's row is locked: what is approved is what the adviser was shown, or nothing.
    if (
      !sameIds(
        facts.registered.map((course) => course.id),
        request.registration_ids,
      )
    ) {
      throw new ApiError(
        409,
        "This student changed the semester after you opened it; review it again.",
      );
    }
    // While the student can still add them, a semester without its carry-overs goes back to them.
    const missing = await carryOversMissing(tx, target, session, at);
    if (missing && !missing.approvable) throw new ApiError(409, missing.message);
    await tx
      .insert(registrationApprovals)
      .values({ ...target, staffId: member.id, approvedAt: at });
    await tx.delete(registrationReturns).where(bySemester(registrationReturns, target));
    await tx.delete(registrationResubmissions).where(bySemester(registrationResubmissions, target));
    const approved = {
      status: "approved",
      courses: facts.registered.map((course) => course.code),
      units: facts.registered.reduce((sum, course) => sum + course.unit, 0),
      // Approved without them once registration had closed: they wait for the next session.
      ...(missing ? { carry_overs_waiting: missing.codes } : {}),
    };
    await recordAudit(
      tx,
      {
        staffId: member.id,
        action: "registration.approve",
        ...auditedRecord(target),
        before: { status: facts.status, note: facts.note },
        after: approved,
      },
      at,
    );
    await textTheStudent(tx, jobs, target, phone, "approved", at);
    return { studentName };
  });
}

/** Sends a semester back with a note; the student changes it and it is pending again. */
export async function returnSemester(
  { db, jobs }: Pick<ApiDeps, "db" | "jobs">,
  member: SignedInStaff,
  studentId: number,
  request: ReturnRequest,
  at: Date,
) {
  const target = { studentId, session: request.session, semester: request.semester };
  return db.transaction(async (tx) => {
    const { session, facts, studentName, phone } = await reviewable(tx, member, target, "return");
    const refusal = returnRefusal(session, collegeDate(at));
    if (refusal) throw new ApiError(409, refusal);
    const row = { ...target, staffId: member.id, note: request.note, returnedAt: at };
    await tx
      .insert(registrationReturns)
      .values(row)
      .onConflictDoUpdate({
        target: [
          registrationReturns.studentId,
          registrationReturns.session,
          registrationReturns.semester,
        ],
        set: { staffId: member.id, note: request.note, returnedAt: at },
      });
    await tx.delete(registrationResubmissions).where(bySemester(registrationResubmissions, target));
    await recordAudit(
      tx,
      {
        staffId: member.id,
        action: "registration.return",
        ...auditedRecord(target),
        before: { status: facts.status, note: facts.note },
        after: { status: "returned", note: request.note },
      },
      at,
    );
    await textTheStudent(tx, jobs, target, phone, "returned", at);
    return { studentName };
  });
}

/**
 * Withdraws an adviser's approval (decision 157): the registry may at any time, the student's
 * adviser while the session's registration is open. The semester goes back to the student as a
 * return carrying the reason, so the student sees it where a return shows (the course page and
 * the dashboard) and is e-mailed; the audit row keeps what was approved, beside the approval's own row.
 */
export async function reopenSemester(
  deps: Pick<ApiDeps, "db" | "jobs" | "publicOrigin">,
  member: SignedInStaff,
  studentId: number,
  request: ReopenRequest,
  at: Date,
) {
  const target = { studentId, session: request.session, semester: request.semester };
  const what = `${semesterLabel(target.semester)} registration for ${target.session}`;
  return deps.db.transaction(async (tx) => {
    const student = await lockStudent(tx, studentId);
    const registry = readsEveryDepartment(member);
    if (!registry) await assertAdvises(tx, member, studentId);
    if (!student) throw new ApiError(404, "There is no student with that id.");
    const session = await findSession(tx, target.session);
    const facts = await semesterFacts(tx, target);
    if (facts.status !== "approved")
      throw new ApiError(
        409,
        `The ${what} is not approved (it is ${facts.status.replace("_", " ")}); there is nothing to reopen.`,
      );
    const refusal = registry ? null : reopenRefusal(session, collegeDate(at));
    if (refusal) throw new ApiError(409, refusal);
    const [approval] = await tx
      .select()
      .from(registrationApprovals)
      .where(bySemester(registrationApprovals, target));
    const [approver] = approval?.staffId
      ? await tx.select({ name: staff.name }).from(staff).where(eq(staff.id, approval.staffId))
      : [];
    await tx.delete(registrationApprovals).where(bySemester(registrationApprovals, target));
    await tx
      .insert(registrationReturns)
      .values({ ...target, staffId: member.id, note: request.reason, returnedAt: at })
      .onConflictDoUpdate({
        target: [
          registrationReturns.studentId,
          registrationReturns.session,
          registrationReturns.semester,
        ],
        set: { staffId: member.id, note: request.reason, returnedAt: at },
      });
    await tx.delete(registrationResubmissions).where(bySemester(registrationResubmissions, target));
    const before = {
      status: "approved",
      approved_by: approver?.name ?? approval?.approvedBy ?? null,
      approved_at: approval?.approvedAt.toISOString() ?? null,
      courses: facts.registered.map((course) => course.code),
    };
    await recordAudit(
      tx,
      {
        staffId: member.id,
        action: "registration.reopen",
        ...auditedRecord(target),
        before,
        after: { status: "returned", reason: request.reason },
      },
      at,
    );
    const email = student.email?.trim();
    if (email) {
      const mail = reopenedMail(
        { email, othername: student.othername },
        {
          semester: semesterLabel(target.semester),
          session: target.session,
          by: member.name,
          reason: request.reason,
        },
        deps.publicOrigin,
      );
      await deps.jobs.sendMail(tx, mail);
    }
    await textTheStudent(tx, deps.jobs, target, student.phone, "returned", at);
    const name = `${student.surname} ${student.othername}`;
    return `${what} reopened: ${name} can change it again and has been told why ${email ? "by e-mail, " : ""}by SMS and on the portal.`;
  });
}
