import { Hono } from "hono";
import type { ApiDeps } from "../deps.ts";
import type { ApiEnv } from "../http/context.ts";
import { readJson, readParams, readQuery } from "../http/validate.ts";
import { and, eq } from "drizzle-orm";
import { complaintReplies, complaints } from "../db/schema.ts";
import { NO_SUCH_TICKET } from "./inbox.ts";
import { requireStudent } from "../auth/require-student.ts";
import {
  COMPLAINT_SENT,
  ComplaintRequest,
  type ComplaintAnswer,
} from "../../common/complaints/complaint.ts";
import {
  StudentReplyRequest,
  studentReplySent,
  TicketParam,
  type MyComplaintsPage,
} from "../../common/complaints/tickets.ts";
import { PageQuery } from "../../common/validation/lists.ts";
import { supportCopy } from "./support-copy.ts";
import { storeWithTicket } from "./store-complaint.ts";
import { myComplaints } from "./my-complaints.ts";
import { ApiError } from "../http/errors.ts";
import { createRateLimiter } from "../auth/rate-limit.ts";

// Each complaint mails the support desk; a loop in one account must not flood its inbox.
const COMPLAINTS_PER_STUDENT = { limit: 10, windowMs: 60 * 60_000 };
// A conversation takes more turns than new complaints do, but still not hundreds an hour.
const REPLIES_PER_STUDENT = { limit: 30, windowMs: 60 * 60_000 };

export function complaintRoutes(deps: ApiDeps) {
  const app = new Hono<ApiEnv>();
  const sent = createRateLimiter(deps.db, COMPLAINTS_PER_STUDENT);
  const replied = createRateLimiter(deps.db, REPLIES_PER_STUDENT);

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

  /**
   * The student answers under their own complaint. Someone else's ticket answers as an unknown one
   * does (404): a ticket number says nothing about whose it is. A reply to a closed complaint opens
   * it again, and one to an answered complaint puts it back in the help desk's "Open" list: either
   * way the desk has something to read. The row is locked, so a close cannot slip in between.
   */
  app.post("/complaint/:ticket/replies", requireStudent(deps), async (c) => {
    const { ticket } = readParams(c, TicketParam);
    const { body } = await readJson(c, StudentReplyRequest);
    const student = c.var.student;
    const { blocked, retryAfterSeconds } = await replied.hit(
      `complaint-reply:${student.id}`,
      deps.now(),
    );
    if (blocked) {
      throw new ApiError(
        429,
        "You have sent 30 replies in the last hour. Wait a while before sending another; the help desk has your earlier ones.",
        {
          headers: { "Retry-After": String(retryAfterSeconds) },
        },
      );
    }
    const reopened = await deps.db.transaction(async (tx) => {
      const [complaint] = await tx
        .select()
        .from(complaints)
        .where(and(eq(complaints.ticket, ticket), eq(complaints.studentId, student.id)))
        .for("update");
      if (!complaint) throw new ApiError(404, NO_SUCH_TICKET);
      await tx
        .insert(complaintReplies)
        .values({ complaintId: complaint.id, fromStudent: true, body, createdAt: deps.now() });
      await tx
        .update(complaints)
        .set({ status: "open", updatedAt: deps.now() })
        .where(eq(complaints.id, complaint.id));
      return complaint.status === "closed";
    });
    return c.json(
      {
        status: "success",
        message: studentReplySent(ticket, reopened),
        data: { ticket, status: "open", reopened },
      },
      201,
    );
  });

  app.get("/complaint/mine", requireStudent(deps), async (c) => {
    const { page } = readQuery(c, PageQuery);
    const body: MyComplaintsPage = await myComplaints(deps.db, c.var.student.id, page);
    return c.json(body);
  });

  return app;
}
