import { z } from "zod";
import { StudentRecord } from "./student-record.ts";

const OPEN_THE_LINK = "Open the link we e-mailed you to confirm the change.";

/** `POST /student/contact-change/confirm`: the token from the mailed link. */
export const ContactChangeConfirmation = z.object({
  token: z.string({ error: OPEN_THE_LINK }).regex(/^[A-Za-z0-9_-]{43}$/, OPEN_THE_LINK),
});
export type ContactChangeConfirmation = z.infer<typeof ContactChangeConfirmation>;

/** What the confirmation answers: the record with the new phone number or e-mail. */
export const ContactChangeConfirmed = z.object({
  status: z.literal("success"),
  message: z.string(),
  data: StudentRecord,
});

/** `POST /student/contact-change/pending`: what the link would change; null for what it leaves. */
export const PendingContactChange = z.object({
  status: z.literal("success"),
  data: z.object({ phone: z.string().nullable(), email: z.string().nullable() }),
});
export type PendingContactChange = z.infer<typeof PendingContactChange>;

/** Shown on Update Biodata after a confirmation link was opened (`?contact_changed=1`). */
export const CONTACT_CHANGED =
  "Your phone number or e-mail has been changed. Every other device signed in to your account has been signed out.";
