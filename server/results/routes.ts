import { Hono } from "hono";
import { z } from "zod";
import type { ApiDeps } from "../deps.ts";
import type { ApiEnv } from "../http/context.ts";
import { readParams, readQuery } from "../http/validate.ts";
import { requireStudent } from "../auth/require-student.ts";
import { ExamCardQuery } from "../../common/results/exam-card.ts";
import { myResults } from "./student-results.ts";
import { checkResults, resultsVerifyUrl } from "./results-verification.ts";
import { checkExamCard, examCard } from "./exam-card.ts";

// Any shape is answered with the same "not genuine" as a bad signature.
const TokenParam = z.object({ token: z.string() });

/**
 * A student's own published results and exam card (issue 32, decisions 176 and 181), and the
 * public checks behind the QR codes printed on them.
 */
export function resultRoutes(deps: ApiDeps) {
  const app = new Hono<ApiEnv>();
  const signedIn = requireStudent(deps);

  app.get("/student/results", signedIn, async (c) => {
    const results = await myResults(deps.db, c.var.student.id, deps.resultsRequireFees ?? true);
    const verify_url =
      results.semesters.length > 0 ? resultsVerifyUrl(deps, c.var.student.id) : null;
    return c.json({ status: "success", data: { ...results, verify_url } });
  });

  // A card that cannot be issued is an answer, not an error: the page says what is missing.
  app.get("/student/exam-card", signedIn, async (c) => {
    const { semester } = readQuery(c, ExamCardQuery);
    return c.json({
      status: "success",
      data: await examCard(deps, c.var.student.id, semester),
    });
  });

  // Public: an invigilator, an employer or another college scans the QR without signing in.
  app.get("/results/verify/:token", async (c) => {
    const { token } = readParams(c, TokenParam);
    return c.json({ status: "success", data: await checkResults(deps, token) });
  });

  app.get("/exam-cards/verify/:token", async (c) => {
    const { token } = readParams(c, TokenParam);
    return c.json({ status: "success", data: await checkExamCard(deps, token) });
  });

  return app;
}
