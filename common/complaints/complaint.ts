import { z } from "zod";
import { ComplaintStatus } from "./tickets.ts";

/** Longest subject and message a complaint may have; the form's maxlength uses the same. */
export const COMPLAINT_LIMITS = { subject: 150, message: 5000 } as const;

/**
 * What the student sends to `POST /complaint/`. The spec's payload also carries name and
 * email; the server takes both from the signed-in account instead, so they are not read here.
 */
export const ComplaintRequest = z.object({
  subject: z
    .string({ error: "Enter a subject for your complaint." })
    .trim()
    .min(1, "Enter a subject for your complaint.")
    .max(
      COMPLAINT_LIMITS.subject,
      `Keep the subject to ${COMPLAINT_LIMITS.subject} characters or fewer.`,
    ),
  message: z
    .string({ error: "Write your complaint in the message box." })
    .trim()
    .min(1, "Write your complaint in the message box.")
    .max(
      COMPLAINT_LIMITS.message,
      `Keep the message to ${COMPLAINT_LIMITS.message} characters or fewer.`,
    ),
});
export type ComplaintRequest = z.infer<typeof ComplaintRequest>;

export const COMPLAINT_SENT = "Successful! Complaint has been sent";

/** The answer to a stored complaint: its ticket number is what the student quotes later. */
export const ComplaintAnswer = z.object({
  status: z.literal("success"),
  message: z.string(),
  data: z.object({
    id: z.number().int(),
    ticket: z.string(),
    status: ComplaintStatus,
    subject: z.string(),
    created_at: z.string(),
  }),
});
export type ComplaintAnswer = z.infer<typeof ComplaintAnswer>;
