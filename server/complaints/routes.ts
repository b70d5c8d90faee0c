import { Hono } from "hono";
import type { ApiDeps } from "../app.ts";
import type { ApiEnv } from "../http/context.ts";
import { readJson, readQuery } from "../http/validate.ts";
import { requireStudent } from "../auth/require-student.ts";
import {
  COMPLAINT_SENT,
  ComplaintRequest,
  type ComplaintAnswer,
} from "../../src/lib/complaints/complaint.ts";
import type { MyComplaintsPage } from "../../src/lib/complaints/tickets.ts";
import { PageQuery } from "../../src/lib/validation/lists.ts";
import { supportCopy } from "./support-copy.ts";
import { storeWithTicket } from "./store-complaint.ts";
import { myComplaints } from "./my-complaints.ts";
import { ApiError } from "../http/errors.ts";
import { createRateLimiter } from "../auth/rate-limit.ts";

// Each complaint mails the support desk; a loop in one account must not flood its inbox.
const COMPLAINTS_PER_STUDENT = { limit: 10, windowMs: 60 * 60_000 };

export function complaintRoutes(deps: ApiDeps) {
  const app = new Hono<ApiEnv>();
  const sent = createRateLimiter(deps.db, COMPLAINTS_PER_STUDENT);

  app.post("/complaint/", requireStudent(deps), async (c) => {
    const { subject, message } = await readJson(c, ComplaintRequest);
    const student = c.var.student;
    const { blocked, retryAfterSeconds } = await sent.hit(`complaint:${student.id}`, deps.now());
    if (blocked) {
      throw new ApiError(
        429,
        "You have sent 10 complaints in the last hour. Wait a while before sending another; the support desk has your earlier ones.",
        { headers: { "Retry-After": String(retryAfterSeconds) } },
      );
    }
    // Name and e-mail come from the account: a body could claim to be anyone. The support
    // desk's copy is queued with the complaint, so a slow or failing mail server neither holds up
    // the answer nor loses the copy.
    const complaint = await storeWithTicket(
      deps.db,
      {
        studentId: student.id,
        subject,
        message,
        name: `${student.surname} ${student.othername}`,
        // A student with no e-mail address (decision 156) is answered on the portal only.
        email: student.email ?? "",
        createdAt: deps.now(),
        updatedAt: deps.now(),
      },
      (tx, stored) => deps.jobs.sendMail(tx, supportCopy(stored, student, deps.supportEmail)),
    );

    const body: ComplaintAnswer = {
      status: "success",
      message: COMPLAINT_SENT,
      data: {
        id: complaint.id,
        ticket: complaint.ticket,
        status: complaint.status,
        subject,
        created_at: complaint.createdAt.toISOString(),
      },
    };
    return c.json(body, 201);
  });

  app.get("/complaint/mine", requireStudent(deps), async (c) => {
    const { page } = readQuery(c, PageQuery);
    const body: MyComplaintsPage = await myComplaints(deps.db, c.var.student.id, page);
    return c.json(body);
  });

  return app;
}
