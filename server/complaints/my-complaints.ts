import { asc, count, desc, eq, inArray } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { complaintReplies, complaints } from "../db/schema.ts";
import { MY_COMPLAINTS_PAGE_SIZE, type MyComplaint } from "../../common/complaints/tickets.ts";

/** One page of a student's own complaints, newest first, each with the help desk's replies. */
export async function myComplaints(db: Database, studentId: number, page: number) {
  const mine = eq(complaints.studentId, studentId);
  const [total] = await db.select({ rows: count() }).from(complaints).where(mine);
  const rows = await db
    .select()
    .from(complaints)
    .where(mine)
    .orderBy(desc(complaints.createdAt), desc(complaints.id))
    .limit(MY_COMPLAINTS_PAGE_SIZE)
    .offset((page - 1) * MY_COMPLAINTS_PAGE_SIZE);
  const replies = rows.length
    ? await db
        .select()
        .from(complaintReplies)
        .where(
          inArray(
            complaintReplies.complaintId,
            rows.map((row) => row.id),
          ),
        )
        .orderBy(asc(complaintReplies.createdAt), asc(complaintReplies.id))
    : [];
  // The student sees what the desk wrote and when, not which officer wrote it.
  const data: MyComplaint[] = rows.map((row) => ({
    ticket: row.ticket,
    subject: row.subject,
    message: row.message,
    status: row.status,
    created_at: row.createdAt.toISOString(),
    replies: replies
      .filter((reply) => reply.complaintId === row.id)
      .map((reply) => ({
        body: reply.body,
        created_at: reply.createdAt.toISOString(),
        from: reply.fromStudent ? ("student" as const) : ("help_desk" as const),
      })),
  }));
  return { data, total: total?.rows ?? 0, page, page_size: MY_COMPLAINTS_PAGE_SIZE };
}
