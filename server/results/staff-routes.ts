import { Hono } from "hono";
import type { ApiDeps } from "../deps.ts";
import type { ApiEnv } from "../http/context.ts";
import { readJson, readParams, readQuery } from "../http/validate.ts";
import { requireStaff } from "../auth/require-staff.ts";
import {
  AssignLecturersRequest,
  DepartmentHeadRequest,
  AmendmentDecision,
  AmendmentParam,
  AmendmentRequest,
  OfferingParam,
  PublishRequest,
  ReturnResultRequest,
  SemesterChoice,
  SaveScoresRequest,
  type LecturerOffering,
} from "../../common/results/score-sheets.ts";
import { decideResult, resultsToReview, reviewedResult, setDepartmentHead } from "./review.ts";
import { approvalOverview, computedResults, publishResults } from "./publication.ts";
import { amendmentsFor, decideAmendment, proposeAmendment } from "./amendments.ts";
import { assertTeaches, assignLecturers, offeringsTaughtBy } from "./offerings.ts";
import { readScoreSheet, saveScores, submitResult } from "./score-sheet.ts";
import { listGradingSchemes, setGradingScheme } from "./grading-scheme.ts";
import { SetGradingSchemeRequest } from "../../common/results/grading-schemes.ts";
import { sessionChoices } from "../academic-sessions/session-list.ts";

/**
 * Results on the staff side (issue 32, decision 175). The registry assigns lecturers to a course's
 * offering; its lecturers enter scores and submit the result to the head of department. A
 * lecturer reaches only the offerings they teach, and a head of department only their
 * departments' results once submitted: any other is answered as if it did not exist. The exams
 * office computes each programme's semester from approved results and publishes it on the
 * academic board's approval; it never changes a score.
 */
export function resultStaffRoutes(deps: ApiDeps) {
  const { db, now } = deps;
  const app = new Hono<ApiEnv>();
  const registry = requireStaff(deps, { roles: ["registry"] });
  const lecturers = requireStaff(deps, { roles: ["lecturer"] });
  const heads = requireStaff(deps, { roles: ["hod"] });
  const examsOffice = requireStaff(deps, { roles: ["exams"] });
  const amendmentRoles = requireStaff(deps, { roles: ["lecturer", "hod", "exams"] });

  app.post("/staff/results/offerings/:id/amendments", lecturers, async (c) => {
    const { id } = readParams(c, OfferingParam);
    await assertTeaches(db, c.var.staff.id, id);
    const request = await readJson(c, AmendmentRequest);
    const amendment = await proposeAmendment(db, c.var.staff.id, id, request, now());
    return c.json({
      status: "success",
      message: "Amendment sent to the head of department",
      data: { id: amendment },
    });
  });

  app.get("/staff/results/amendments", amendmentRoles, async (c) => {
    return c.json({ status: "success", data: await amendmentsFor(db, c.var.staff) });
  });

  // The head of department endorses first; the exams office then applies.
  for (const [as, guard] of [
    ["hod", heads],
    ["exams", examsOffice],
  ] as const) {
    app.post(`/staff/results/amendments/:id/${as}`, guard, async (c) => {
      const { id } = readParams(c, AmendmentParam);
      const decision = await readJson(c, AmendmentDecision);
      await decideAmendment(deps, c.var.staff.id, id, { as, ...decision }, now());
      const message = !decision.approve
        ? "Amendment declined"
        : as === "hod"
          ? "Amendment endorsed: it goes to the exams office"
          : "Amendment applied: the student's GPA and CGPA are recomputed";
      return c.json({ status: "success", message });
    });
  }

  app.get("/staff/results/grading-schemes", examsOffice, async (c) => {
    return c.json({ status: "success", data: await listGradingSchemes(db) });
  });

  app.post("/staff/results/grading-schemes", examsOffice, async (c) => {
    const request = await readJson(c, SetGradingSchemeRequest);
    await setGradingScheme(db, c.var.staff.id, request, now());
    return c.json({
      status: "success",
      message: `Grading scheme set from ${request.from_session}`,
    });
  });

  // The exams office's pages choose a session from the college's list, not typed.
  app.get("/staff/results/sessions", examsOffice, async (c) => {
    return c.json({ status: "success", data: await sessionChoices(db) });
  });

  app.get("/staff/results/overview", examsOffice, async (c) => {
    const choice = readQuery(c, SemesterChoice.omit({ programme_id: true }));
    return c.json({ status: "success", data: await approvalOverview(db, choice) });
  });

  app.get("/staff/results/computed", examsOffice, async (c) => {
    const choice = readQuery(c, SemesterChoice);
    return c.json({ status: "success", data: await computedResults(db, choice) });
  });

  app.post("/staff/results/publish", examsOffice, async (c) => {
    const request = await readJson(c, PublishRequest);
    await publishResults(deps, c.var.staff.id, request, now());
    return c.json({ status: "success", message: "Results published" });
  });

  app.post("/staff/results/department-heads", registry, async (c) => {
    const request = await readJson(c, DepartmentHeadRequest);
    await setDepartmentHead(db, c.var.staff.id, request, now());
    return c.json({ status: "success", message: "Head of department set" });
  });

  app.get("/staff/results/review", heads, async (c) => {
    return c.json({ status: "success", data: await resultsToReview(db, c.var.staff.id) });
  });

  app.get("/staff/results/review/:id", heads, async (c) => {
    const { id } = readParams(c, OfferingParam);
    return c.json({ status: "success", data: await reviewedResult(db, c.var.staff.id, id) });
  });

  app.post("/staff/results/review/:id/approve", heads, async (c) => {
    const { id } = readParams(c, OfferingParam);
    await decideResult(db, c.var.staff.id, id, { approve: true }, now());
    return c.json({ status: "success", message: "Result approved" });
  });

  app.post("/staff/results/review/:id/return", heads, async (c) => {
    const { id } = readParams(c, OfferingParam);
    const { note } = await readJson(c, ReturnResultRequest);
    await decideResult(db, c.var.staff.id, id, { approve: false, note }, now());
    return c.json({ status: "success", message: "Result returned to its lecturers" });
  });

  app.post("/staff/results/offerings", registry, async (c) => {
    const request = await readJson(c, AssignLecturersRequest);
    const id = await assignLecturers(db, c.var.staff.id, request, now());
    return c.json({ status: "success", message: "Lecturers assigned", data: { id } });
  });

  app.get("/staff/results/teaching", lecturers, async (c) => {
    const rows = await offeringsTaughtBy(db, c.var.staff.id);
    const sheets = await Promise.all(
      rows.map(({ offering }) => readScoreSheet(db, offering.id, () => false)),
    );
    const data: LecturerOffering[] = sheets.map((sheet) => ({
      ...sheet.offering,
      students: sheet.rows.length,
      entered: sheet.rows.filter((row) => row.grade !== null).length,
    }));
    return c.json({ status: "success", data });
  });

  app.get("/staff/results/offerings/:id", lecturers, async (c) => {
    const { id } = readParams(c, OfferingParam);
    await assertTeaches(db, c.var.staff.id, id);
    const sheet = await readScoreSheet(db, id, (status) => status === "open");
    return c.json({ status: "success", data: sheet });
  });

  app.put("/staff/results/offerings/:id/scores", lecturers, async (c) => {
    const { id } = readParams(c, OfferingParam);
    await assertTeaches(db, c.var.staff.id, id);
    const request = await readJson(c, SaveScoresRequest);
    const { saved } = await saveScores(db, c.var.staff.id, id, request, now());
    // The sent rows as now graded, so a page saving as the lecturer goes shows total and grade
    // without reading the whole sheet again.
    const sent = new Set(request.scores.map((entry) => entry.student_id));
    const sheet = await readScoreSheet(db, id, (status) => status === "open");
    return c.json({
      status: "success",
      message: saved ? `${saved} ${saved === 1 ? "score" : "scores"} saved` : "Nothing changed",
      data: { rows: sheet.rows.filter((row) => sent.has(row.student_id)) },
    });
  });

  app.post("/staff/results/offerings/:id/submit", lecturers, async (c) => {
    const { id } = readParams(c, OfferingParam);
    await assertTeaches(db, c.var.staff.id, id);
    await submitResult(db, c.var.staff.id, id, now());
    return c.json({
      status: "success",
      message: "Result submitted to the head of department",
    });
  });

  return app;
}
