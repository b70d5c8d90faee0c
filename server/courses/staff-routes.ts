import { Hono } from "hono";
import { desc } from "drizzle-orm";
import type { ApiDeps } from "../deps.ts";
import type { Database } from "../db/client.ts";
import { academicSessions } from "../db/schema.ts";
import type { ApiEnv } from "../http/context.ts";
import { ApiError } from "../http/errors.ts";
import { readJson, readParams, readQuery } from "../http/validate.ts";
import { findSession } from "./registration-rules.ts";
import { requireStaff } from "../auth/require-staff.ts";
import { currentSessionName } from "../students/student-record.ts";
import { semesterLabel } from "../../common/courses/selection.ts";
import {
  ApproveRequest,
  missingCarryOversAtApproval,
  RegistrationListQuery,
  ReopenRequest,
  reopenRefusal,
  ReturnRequest,
  ReviewQuery,
  StudentParam,
} from "../../common/courses/advising.ts";
import {
  advises,
  assertMayRead,
  findAdvisee,
  readsEveryDepartment,
} from "./advising/adviser-scope.ts";
import { registrationList } from "./advising/registration-list.ts";
import { approveSemester, reopenSemester, returnSemester } from "./advising/review-actions.ts";
import { collegeDate } from "../../common/format/dates.ts";
import { semesterReviews } from "./advising/semester-review.ts";
import { carryOversFor, publishedRecord } from "./carry-overs.ts";
import { carryOverPlan, markCarryOvers } from "../../common/courses/carry-overs.ts";

const sessionNames = async (db: Database) =>
  (
    await db
      .select({ name: academicSessions.name })
      .from(academicSessions)
      .orderBy(desc(academicSessions.name))
  ).map((row) => row.name);

/**
 * Course advisers review their students' registrations (docs/decisions/085). Advisers read and act
 * within their departments and levels; the registry reads every department and acts on none.
 */
export function courseStaffRoutes(deps: ApiDeps) {
  const { db, now } = deps;
  const app = new Hono<ApiEnv>();
  const readers = requireStaff(deps, { roles: ["adviser", "registry"] });
  const advisers = requireStaff(deps, { roles: ["adviser"] });
  const reopeners = requireStaff(deps, { roles: ["adviser", "registry"] });

  async function sessionOrNewest(asked: string | undefined) {
    if (asked) return (await findSession(db, asked)).name;
    const newest = await currentSessionName(db);
    if (!newest) throw new ApiError(404, "No academic session has been set up yet.");
    return newest;
  }

  app.get("/staff/registrations", readers, async (c) => {
    const query = readQuery(c, RegistrationListQuery);
    const session =
      query.status === "waiting" && !query.session ? null : await sessionOrNewest(query.session);
    const [page, sessions] = await Promise.all([
      registrationList(db, c.var.staff, { ...query, session }),
      sessionNames(db),
    ]);
    return c.json({ ...page, sessions });
  });

  app.get("/staff/registrations/:studentId", readers, async (c) => {
    const { studentId } = readParams(c, StudentParam);
    const session = await sessionOrNewest(readQuery(c, ReviewQuery).session);
    const member = c.var.staff;
    await assertMayRead(db, member, studentId);
    const student = await findAdvisee(db, studentId);
    const [reviews, mayReview, window, record] = await Promise.all([
      semesterReviews(db, studentId, session),
      member.roles.includes("adviser") ? advises(db, member, studentId) : false,
      findSession(db, session),
      publishedRecord(db, student),
    ]);
    // Which registered courses are carry-overs, and which carry-overs are not registered yet.
    const carryOvers = await carryOversFor(db, student, session, record);
    const approved = new Set<number>(
      reviews.filter((review) => review.status === "approved").map((review) => review.semester),
    );
    const plan = carryOverPlan(
      carryOvers,
      reviews.flatMap((review) => review.courses),
      approved,
    );
    const today = collegeDate(now());
    // The warning beside Approve: the same rule the approval applies (decision 185).
    const semesters = reviews.map((review) => ({
      ...review,
      courses: markCarryOvers(review.courses, carryOvers),
      missing_carry_overs:
        review.status === "pending" || review.status === "returned"
          ? missingCarryOversAtApproval(plan, review.semester, window, today)
          : null,
    }));
    const latest = record.at(-1);
    const registry = readsEveryDepartment(member);
    const refusal = registry || !mayReview ? null : reopenRefusal(window, today);
    return c.json({
      data: {
        session,
        student: {
          id: student.id,
          name: `${student.surname} ${student.othername}`,
          matric_no: student.matricNo,
          department: student.department,
          level: student.level,
          programme: student.programme,
        },
        semesters,
        standing: latest
          ? {
              session: latest.session,
              semester: latest.semester,
              standing: latest.standing,
              gpa: latest.gpa,
              cgpa: latest.cgpa,
            }
          : null,
        carry_overs: plan,
        may_review: mayReview,
        reopen: { allowed: registry || (mayReview && refusal === null), refusal },
      },
    });
  });

  app.post("/staff/registrations/:studentId/approve", advisers, async (c) => {
    const { studentId } = readParams(c, StudentParam);
    const request = await readJson(c, ApproveRequest);
    const { studentName } = await approveSemester(deps, c.var.staff, studentId, request, now());
    return c.json({
      status: "success",
      message: `${semesterLabel(request.semester)} registration for ${request.session} approved: ${studentName} can no longer change it.`,
    });
  });

  app.post("/staff/registrations/:studentId/return", advisers, async (c) => {
    const { studentId } = readParams(c, StudentParam);
    const request = await readJson(c, ReturnRequest);
    const { studentName } = await returnSemester(deps, c.var.staff, studentId, request, now());
    return c.json({
      status: "success",
      message: `${semesterLabel(request.semester)} registration for ${request.session} returned to ${studentName} with your note.`,
    });
  });

  app.post("/staff/registrations/:studentId/reopen", reopeners, async (c) => {
    const { studentId } = readParams(c, StudentParam);
    const request = await readJson(c, ReopenRequest);
    const message = await reopenSemester(deps, c.var.staff, studentId, request, now());
    return c.json({ status: "success", message });
  });

  return app;
}
