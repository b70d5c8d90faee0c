import { Hono } from "hono";
import type { ApiDeps } from "../deps.ts";
import type { ApiEnv } from "../http/context.ts";
import { readJson, readParams, readQuery } from "../http/validate.ts";
import { requireStudent } from "../auth/require-student.ts";
import {
  RegisterRequest,
  ResetRequest,
  SlipParams,
  SlipQuery,
  StudentViewQuery,
} from "../../common/courses/requests.ts";
import {
  registrationRecord,
  registrationSlip,
  registrationWithCarryOvers,
} from "./student-view.ts";
import { registerCourses } from "./register.ts";
import { resetSemester } from "./reset.ts";
import type { CarryOverCourseRow } from "./carry-overs.ts";
import { carryOverPlan } from "../../common/courses/carry-overs.ts";
import type { StudentView } from "../../common/courses/registered-course.ts";
import type { SignedInStudent } from "../auth/sessions.ts";

/** The signed-in student's registrations: view, register, reset and the slip's data. */
export function courseRoutes(deps: ApiDeps) {
  const app = new Hono<ApiEnv>();
  const signedIn = requireStudent(deps);

  // Without a query (the dashboard), the current session at any level.
  app.get("/courses/student-view", signedIn, async (c) => {
    const query = readQuery(c, StudentViewQuery);
    const session = query.session ?? c.var.student.placement.currentSession;
    if (!session) return c.json({ status: "success", data: [], approvals: [], returns: [] });
    const record = await registrationRecord(
      deps.db,
      c.var.student.id,
      session,
      query.registration_level,
    );
    return c.json({ status: "success", ...record });
  });

  /** A session's registration record and its carry-overs' plan; without a session, the current one. */
  async function pickerView(student: SignedInStudent, asked: string | undefined) {
    const session = asked ?? student.placement.currentSession;
    if (!session) return { session: null, view: NOTHING_REGISTERED, carry_overs: [] };
    const { record, carryOvers } = await registrationWithCarryOvers(deps.db, student, session);
    return { session, view: record, carry_overs: carryOverPlanOf(record, carryOvers) };
  }

  // The session's carry-overs (decision 180): registered, required in the next registration of
  // their semester, or waiting for a later session.
  app.get("/courses/carry-overs", signedIn, async (c) => {
    const { session, carry_overs } = await pickerView(
      c.var.student,
      readQuery(c, SlipQuery).session,
    );
    return c.json({ status: "success", data: { session, carry_overs } });
  });

  // What the course picker shows of a session (decision 204): student-view's answer at every
  // level and carry-overs' answer, from one read of the registration record.
  app.get("/courses/picker-view", signedIn, async (c) => {
    const data = await pickerView(c.var.student, readQuery(c, SlipQuery).session);
    return c.json({ status: "success", data });
  });

  app.post("/courses/register", signedIn, async (c) => {
    const request = await readJson(c, RegisterRequest);
    const result = await registerCourses(deps.db, c.var.student, request, deps.now());
    deps.logger.info("courses registered", {
      studentId: c.var.student.id,
      session: request.session,
      ...result,
    });
    return c.json({ status: "success", message: "Courses registered.", data: result }, 201);
  });

  app.post("/courses/reset/", signedIn, async (c) => {
    const request = await readJson(c, ResetRequest);
    const result = await resetSemester(deps.db, c.var.student.id, request, deps.now());
    return c.json({ status: "success", message: "Reset successful", data: result });
  });

  // The spec names the slip's call "validated/first"; it answers both semesters under data.data[0].
  app.get("/courses/validated/first/:level", signedIn, async (c) => {
    const { level } = readParams(c, SlipParams);
    const session = readQuery(c, SlipQuery).session ?? c.var.student.placement.currentSession;
    // The slip marks the courses registered as carry-overs.
    const slip = session ? await registrationSlip(deps.db, c.var.student, session, level) : null;
    if (!slip) return c.json({ status: "success", data: { data: [] } });
    return c.json({ status: "success", data: { data: [slip] } });
  });

  return app;
}

const NOTHING_REGISTERED: StudentView = { data: [], approvals: [], returns: [] };

/** Where each carry-over stands in the session's registration (decision 180). */
function carryOverPlanOf(record: StudentView, carryOvers: CarryOverCourseRow[]) {
  const approved = new Set<number>(record.approvals.map((approval) => approval.semester));
  return carryOverPlan(carryOvers, record.data, approved);
}
