import { and, asc, count, eq, lte, sql } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { complaintReplies, complaints, staff, students } from "../db/schema.ts";
import { ApiError } from "../http/errors.ts";
import {
  INBOX_PAGE_SIZE,
  type ComplaintDetail,
  type InboxQuery,
  type InboxRow,
} from "../../common/complaints/tickets.ts";

const DAY_MS = 24 * 60 * 60_000;

/** The help desk's inbox: filtered by status and age, oldest first, so the longest wait is answered first. */
export async function inboxPage(db: Database, query: InboxQuery, now: Date) {
  const where = and(
    query.status ? eq(complaints.status, query.status) : undefined,
    query.older_than_days
      ? lte(complaints.createdAt, new Date(now.getTime() - query.older_than_days * DAY_MS))
      : undefined,
  );
  const [total] = await db.select({ rows: count() }).from(complaints).where(where);
  const rows = await db
    .select({
      ticket: complaints.ticket,
      subject: complaints.subject,
      name: complaints.name,
      status: complaints.status,
      createdAt: complaints.createdAt,
      replies: sql<number>`(select count(*) from ${complaintReplies} where ${complaintReplies.complaintId} = ${complaints.id})::int`,
    })
    .from(complaints)
    .where(where)
    .orderBy(asc(complaints.createdAt), asc(complaints.id))
    .limit(INBOX_PAGE_SIZE)
    .offset((query.page - 1) * INBOX_PAGE_SIZE);
  const data: InboxRow[] = rows.map(({ createdAt, ...row }) => ({
    ...row,
    created_at: createdAt.toISOString(),
  }));
  return { data, total: total?.rows ?? 0, page: query.page, page_size: INBOX_PAGE_SIZE };
}

export const NO_SUCH_TICKET =
  "There is no complaint with that ticket number. Check it and try again.";

/** One complaint as the help desk reads it: the sender's contact details and every reply with its author. */
export async function complaintDetail(
  db: Database,
  ticket: string,
): Promise<ComplaintDetail["data"]> {
  const [row] = await db
    .select({ complaint: complaints, phone: students.phone, matricNo: students.matricNo })
    .from(complaints)
    .innerJoin(students, eq(students.id, complaints.studentId))
    .where(eq(complaints.ticket, ticket));
  if (!row) throw new ApiError(404, NO_SUCH_TICKET);
  const { complaint } = row;
  const replies = await db
    .select({
      body: complaintReplies.body,
      createdAt: complaintReplies.createdAt,
      staffName: staff.name,
      fromStudent: complaintReplies.fromStudent,
    })
    .from(complaintReplies)
    .leftJoin(staff, eq(staff.id, complaintReplies.staffId))
    .where(eq(complaintReplies.complaintId, complaint.id))
    .orderBy(asc(complaintReplies.createdAt), asc(complaintReplies.id));
  return {
    ticket: complaint.ticket,
    subject: complaint.subject,
    message: complaint.message,
    status: complaint.status,
    created_at: complaint.createdAt.toISOString(),
    student: {
      name: complaint.name,
      email: complaint.email,
      phone: row.phone,
      matric_no: row.matricNo,
    },
    replies: replies.map((reply) => ({
      body: reply.body,
      created_at: reply.createdAt.toISOString(),
      from: reply.fromStudent ? ("student" as const) : ("help_desk" as const),
      staff_name: reply.fromStudent ? null : reply.staffName,
    })),
  };
}
