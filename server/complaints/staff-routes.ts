import { Hono } from "hono";
import { eq } from "drizzle-orm";
import type { ApiDeps } from "../deps.ts";
import type { Transaction } from "../db/client.ts";
import { complaintReplies, complaints, students } from "../db/schema.ts";
import type { ApiEnv } from "../http/context.ts";
import { ApiError } from "../http/errors.ts";
import { readJson, readParams, readQuery } from "../http/validate.ts";
import { recordAudit } from "../audit/audit.ts";
import { requireStaff } from "../auth/require-staff.ts";
import {
  InboxQuery,
  ReplyRequest,
  TicketParam,
  type ComplaintStatus,
} from "../../common/complaints/tickets.ts";
import { complaintDetail, inboxPage, NO_SUCH_TICKET } from "./inbox.ts";
import { replyMail } from "./reply-mail.ts";

/** The complaint row locked for the rest of the transaction: a reply and a close cannot interleave. */
async function lockComplaint(tx: Transaction, ticket: string) {
  const [row] = await tx
    .select()
    .from(complaints)
    .where(eq(complaints.ticket, ticket))
    .for("update");
  if (!row) throw new ApiError(404, NO_SUCH_TICKET);
  return row;
}

/** The help desk's inbox: read, reply, close and reopen complaints (decision 105). */
export function complaintStaffRoutes(deps: ApiDeps) {
  const { db, now } = deps;
  const app = new Hono<ApiEnv>();
  const support = requireStaff(deps, { roles: ["support"] });

  app.get("/staff/complaints", support, async (c) =>
    c.json(await inboxPage(db, readQuery(c, InboxQuery), now())),
  );

  app.get("/staff/complaints/:ticket", support, async (c) => {
    const { ticket } = readParams(c, TicketParam);
    return c.json({ data: await complaintDetail(db, ticket) });
  });

  app.post("/staff/complaints/:ticket/replies", support, async (c) => {
    const { ticket } = readParams(c, TicketParam);
    const { body } = await readJson(c, ReplyRequest);
    const complaint = await db.transaction(async (tx) => {
      const complaint = await lockComplaint(tx, ticket);
      if (complaint.status === "closed")
        throw new ApiError(409, `${ticket} is closed. Reopen it before replying.`);
      await tx
        .insert(complaintReplies)
        .values({ complaintId: complaint.id, staffId: c.var.staff.id, body, createdAt: now() });
      await tx
        .update(complaints)
        .set({ status: "answered", updatedAt: now() })
        .where(eq(complaints.id, complaint.id));
      const change = {
        staffId: c.var.staff.id,
        action: "complaint.reply",
        entity: "complaint",
        entityId: ticket,
      };
      await recordAudit(
        tx,
        {
          ...change,
          before: { status: complaint.status },
          after: { status: "answered", reply: body },
        },
        now(),
      );
      // The address on the student's record today: they may have changed it since complaining.
      const [student] = await tx
        .select({ email: students.email })
        .from(students)
        .where(eq(students.id, complaint.studentId));
      // A student with no e-mail address (decision 156) reads the reply on the portal only.
      const address = student?.email ?? complaint.email;
      if (address)
        await deps.jobs.sendMail(tx, replyMail(complaint, address, body, deps.publicOrigin));
      return complaint;
    });
    return c.json(
      { status: "success", message: `Reply sent to ${complaint.name}. ${ticket} is now answered.` },
      201,
    );
  });

  /** Close or reopen: each only from the state it changes, so a double click does not write twice. */
  const moveTo = (
    target: ComplaintStatus,
    from: readonly ComplaintStatus[],
    refusal: string,
    done: string,
  ) =>
    app.post(
      `/staff/complaints/:ticket/${target === "closed" ? "close" : "reopen"}`,
      support,
      async (c) => {
        const { ticket } = readParams(c, TicketParam);
        await db.transaction(async (tx) => {
          const complaint = await lockComplaint(tx, ticket);
          if (!from.includes(complaint.status)) throw new ApiError(409, `${ticket} ${refusal}`);
          await tx
            .update(complaints)
            .set({ status: target, updatedAt: now() })
            .where(eq(complaints.id, complaint.id));
          const change = {
            staffId: c.var.staff.id,
            action: target === "closed" ? "complaint.close" : "complaint.reopen",
            entity: "complaint",
            entityId: ticket,
          };
          await recordAudit(
            tx,
            { ...change, before: { status: complaint.status }, after: { status: target } },
            now(),
          );
        });
        return c.json({ status: "success", message: `${ticket} ${done}` });
      },
    );
  moveTo(
    "closed",
    ["open", "answered"],
    "is already closed.",
    "is closed. The student sees it as closed.",
  );
  moveTo("open", ["closed"], "is not closed, so there is nothing to reopen.", "is open again.");

  return app;
}
