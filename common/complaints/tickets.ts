import { z } from "zod";
import { PageNumber, Paged } from "../validation/lists.ts";

/** Where a complaint stands: waiting for the help desk, answered, or closed (decision 105). */
export const ComplaintStatus = z.enum(["open", "answered", "closed"], {
  error: "Choose a status: open, answered or closed.",
});
export type ComplaintStatus = z.infer<typeof ComplaintStatus>;

export { COMPLAINT_STATUS_LABELS } from "./ticket-sentence.ts";

/** CMP- and six characters without look-alikes (no 0, 1, I, L, O or U); the database makes them. */
export const TICKET_PATTERN = /^CMP-[2-9A-HJKMNP-TV-Z]{6}$/;

/** A ticket as typed into an address; lower case is accepted. */
export const Ticket = z
  .string()
  .trim()
  .toUpperCase()
  .regex(TICKET_PATTERN, "There is no complaint with that ticket number.");

/** One message of the thread under a complaint: the help desk's answer or the student's own reply. */
export const StudentReply = z.object({
  body: z.string(),
  created_at: z.string(),
  from: z.enum(["help_desk", "student"]),
});

/** One of the student's complaints on their /complaint page, with the help desk's replies. */
export const MyComplaint = z.object({
  ticket: z.string(),
  subject: z.string(),
  message: z.string(),
  status: ComplaintStatus,
  created_at: z.string(),
  replies: z.array(StudentReply),
});
export type MyComplaint = z.infer<typeof MyComplaint>;

export const MY_COMPLAINTS_PAGE_SIZE = 10;

/** GET /complaint/mine: the signed-in student's complaints, newest first. */
export const MyComplaintsPage = Paged(MyComplaint);
export type MyComplaintsPage = z.infer<typeof MyComplaintsPage>;

/** "Older than" choices of the inbox's age filter, in days. */
export const AGE_FILTERS = [1, 3, 7, 14] as const;

/** GET /staff/complaints: no status means every status; oldest first. */
export const InboxQuery = z.object({
  status: ComplaintStatus.optional(),
  older_than_days: z.coerce
    .number({ error: "Choose an age from the list." })
    .refine(
      (days) => (AGE_FILTERS as readonly number[]).includes(days),
      "Choose an age from the list: 1, 3, 7 or 14 days.",
    )
    .optional(),
  page: PageNumber,
});
export type InboxQuery = z.infer<typeof InboxQuery>;

export const INBOX_PAGE_SIZE = 25;

export const InboxRow = z.object({
  ticket: z.string(),
  subject: z.string(),
  name: z.string(),
  status: ComplaintStatus,
  created_at: z.string(),
  replies: z.number(),
});
export type InboxRow = z.infer<typeof InboxRow>;

export const InboxPage = Paged(InboxRow);
export type InboxPage = z.infer<typeof InboxPage>;

/** GET /staff/complaints/{ticket}: the complaint, who sent it, and every reply with its author. */
export const ComplaintDetail = z.object({
  data: z.object({
    ticket: z.string(),
    subject: z.string(),
    message: z.string(),
    status: ComplaintStatus,
    created_at: z.string(),
    student: z.object({
      name: z.string(),
      email: z.string(),
      phone: z.string(),
      matric_no: z.string().nullable(),
    }),
    /** `staff_name` is null on the student's own replies. */
    replies: z.array(StudentReply.extend({ staff_name: z.string().nullable() })),
  }),
});
export type ComplaintDetail = z.infer<typeof ComplaintDetail>;

export const REPLY_LIMIT = 5000;

/** POST /staff/complaints/{ticket}/replies: what the student reads, and receives by e-mail. */
export const ReplyRequest = z.object({
  body: z
    .string({ error: "Write the reply to the student." })
    .trim()
    .min(1, "Write the reply to the student.")
    .max(REPLY_LIMIT, `Keep the reply to ${REPLY_LIMIT} characters or fewer.`),
});
export type ReplyRequest = z.infer<typeof ReplyRequest>;

export const TicketParam = z.object({ ticket: Ticket });

/** POST /complaint/{ticket}/replies: the student's answer under their own complaint; it reopens a closed one. */
export const StudentReplyRequest = z.object({
  body: z
    .string({ error: "Write your reply." })
    .trim()
    .min(1, "Write your reply.")
    .max(REPLY_LIMIT, `Keep the reply to ${REPLY_LIMIT} characters or fewer.`),
});

/** What the student reads after replying, by where the complaint stood. */
export const studentReplySent = (ticket: string, reopened: boolean) =>
  reopened
    ? `Reply sent. ${ticket} was closed and is open again: the help desk will read your reply.`
    : `Reply sent. The help desk will read it under ${ticket}.`;
