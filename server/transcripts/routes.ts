import { Hono } from "hono";
import { z } from "zod";
import type { ApiDeps } from "../deps.ts";
import type { ApiEnv } from "../http/context.ts";
import { readJson, readParams } from "../http/validate.ts";
import { requireStudent } from "../auth/require-student.ts";
import { requireStaff } from "../auth/require-staff.ts";
import { IdParam } from "../../common/validation/lists.ts";
import {
  TranscriptCheckBody,
  TranscriptRequestBody,
} from "../../common/transcripts/transcripts.ts";
import { createPaymentLimits } from "../payments/payment-limits.ts";
import { createRateLimiter } from "../auth/rate-limit.ts";
import { clientNetwork } from "../http/client-address.ts";
import { tooManyRequests } from "../http/too-many-requests.ts";
import {
  cancelTranscript,
  myTranscripts,
  NO_SUCH_REQUEST,
  payForTranscript,
  requestTranscript,
} from "./requests.ts";
import { releaseTranscript, transcriptsForExams } from "./release.ts";
import { checkTranscript, transcriptByToken } from "./verification.ts";

const RequestParam = IdParam(NO_SUCH_REQUEST);
// An institution checks a handful of transcripts; someone trying references and matric numbers
// in bulk is stopped long before the pair could be guessed.
const CHECKS_PER_CLIENT = { limit: 30, windowMs: 60 * 60_000 };
// Any shape is answered with the same "not genuine" as a bad signature.
const TokenParam = z.object({ token: z.string() });

/**
 * Transcripts (issue 32, decision 182): a student asks for one and pays the transcript fee through
 * the payment path school fees use; the exams office releases it; anyone checks it by its signed
 * link or by its reference and the student's matric number, without signing in.
 */
export function transcriptRoutes(deps: ApiDeps) {
  const app = new Hono<ApiEnv>();
  const signedIn = requireStudent(deps);
  const examsOffice = requireStaff(deps, { roles: ["exams"] });
  const limits = createPaymentLimits(deps.db);

  app.get("/student/transcripts", signedIn, async (c) =>
    c.json({ status: "success", data: await myTranscripts(deps, c.var.student) }),
  );

  app.post("/student/transcripts", signedIn, async (c) => {
    const body = await readJson(c, TranscriptRequestBody);
    const { id } = await requestTranscript(deps, c.var.student, body);
    return c.json(
      {
        status: "success",
        message: "Transcript requested. Pay the transcript fee to send it on.",
        data: { id },
      },
      201,
    );
  });

  app.post("/student/transcripts/:id/pay", signedIn, async (c) => {
    const { id } = readParams(c, RequestParam);
    // Counted with the school-fee starts: one limit on opening gateway checkouts (decision 054).
    await limits.countPaymentStart(c.var.student.id, deps.now());
    return c.json(await payForTranscript(deps, c.var.student, id));
  });

  // Only before it is paid; a payment that comes in later is refunded, never released (decision 186).
  app.post("/student/transcripts/:id/cancel", signedIn, async (c) => {
    const { id } = readParams(c, RequestParam);
    await cancelTranscript(deps, c.var.student, id);
    return c.json({ status: "success", message: "Transcript request cancelled." });
  });

  app.get("/staff/transcripts", examsOffice, async (c) =>
    c.json({ status: "success", data: await transcriptsForExams(deps.db) }),
  );

  app.post("/staff/transcripts/:id/release", examsOffice, async (c) => {
    const { id } = readParams(c, RequestParam);
    const { reference, recipientEmail } = await releaseTranscript(deps, c.var.staff.id, id);
    return c.json({
      status: "success",
      message: `Transcript ${reference} released; its link is on its way to ${recipientEmail}.`,
      data: { reference },
    });
  });

  // Public: an institution opens the link or scans the QR code. The signature is the authority.
  app.get("/transcripts/verify/:token", async (c) => {
    const { token } = readParams(c, TokenParam);
    return c.json({ status: "success", data: await transcriptByToken(deps, token) });
  });

  const checks = createRateLimiter(deps.db, CHECKS_PER_CLIENT);
  app.post("/transcripts/check", async (c) => {
    const check = await readJson(c, TranscriptCheckBody);
    const { blocked, retryAfterSeconds } = await checks.hit(
      `transcript-check:client:${clientNetwork(c.get("clientAddress"))}`,
      deps.now(),
    );
    if (blocked)
      throw tooManyRequests("Too many transcript checks.", retryAfterSeconds, "and try again.");
    return c.json({
      status: "success",
      message: "Genuine: this transcript was issued by the college.",
      data: await checkTranscript(deps.db, check),
    });
  });

  return app;
}
