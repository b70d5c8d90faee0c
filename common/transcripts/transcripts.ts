import { z } from "zod";
import { EmailAddress } from "../validation/person.ts";
import { CourseResult } from "../results/score-sheets.ts";

/** Whom a transcript goes to: the student's own address, or an institution's. */
export const TRANSCRIPT_RECIPIENTS = ["self", "institution"] as const;
export type TranscriptRecipient = (typeof TRANSCRIPT_RECIPIENTS)[number];

/** POST /student/transcripts: a plain form's fields; an institution needs its name and address. */
export const TranscriptRequestBody = z
  .object({
    recipient: z.enum(TRANSCRIPT_RECIPIENTS, {
      error: "Choose whom the transcript goes to: yourself or an institution.",
    }),
    institution_name: z
      .string()
      .trim()
      .max(200, "Keep the institution's name under 200 characters.")
      .default(""),
    institution_email: z.string().trim().max(254).default(""),
  })
  .transform((body, context) => {
    if (body.recipient === "self") return { recipient: "self" as const };
    const email = EmailAddress.safeParse(body.institution_email);
    if (body.institution_name.length < 2) {
      context.addIssue({
        code: "custom",
        path: ["institution_name"],
        message: "Enter the institution's name.",
      });
    }
    if (!email.success) {
      context.addIssue({
        code: "custom",
        path: ["institution_email"],
        message: "Enter the institution's e-mail address, where the transcript is sent.",
      });
    }
    if (body.institution_name.length < 2 || !email.success) return z.NEVER;
    return {
      recipient: "institution" as const,
      institutionName: body.institution_name,
      email: email.data,
    };
  });
export type TranscriptRequestBody = z.output<typeof TranscriptRequestBody>;

/**
 * What a transcript says, written once when the exams office releases it: names, programme and
 * every published semester as they were that day, whatever the record says later (decision 182).
 */
export const TranscriptSnapshot = z.object({
  surname: z.string(),
  othername: z.string(),
  matric_no: z.string().nullable(),
  programme: z.string(),
  department: z.string(),
  school: z.string(),
  study_mode: z.string(),
  entry_session: z.string(),
  /** Oldest first. */
  semesters: z.array(
    z.object({
      session: z.string(),
      semester: z.number(),
      units: z.number(),
      gpa: z.number(),
      cgpa: z.number(),
      // Each course as it stood when the transcript was released.
      courses: z.array(CourseResult),
    }),
  ),
  total_units: z.number(),
  /** null when nothing is published yet. */
  cgpa: z.number().nullable(),
  certificate_class: z.string().nullable(),
});
export type TranscriptSnapshot = z.infer<typeof TranscriptSnapshot>;

/** Where a request stands, as the student's list shows it. */
export const TRANSCRIPT_STATES = [
  "awaiting_payment",
  "awaiting_release",
  "released",
  "cancelled",
] as const;
export type TranscriptState = (typeof TRANSCRIPT_STATES)[number];
export const TRANSCRIPT_STATE_LABELS: Record<TranscriptState, string> = {
  awaiting_payment: "Awaiting payment",
  awaiting_release: "Paid – awaiting release",
  released: "Released",
  cancelled: "Cancelled",
};

/** GET /student/transcripts: the fee and the student's requests, newest first. */
export const MyTranscripts = z.object({
  /** null: the bursar has not set a transcript fee, so no request can be made. */
  fee_kobo: z.number().nullable(),
  /** The address a transcript to "myself" goes to; null when the record has none. */
  own_email: z.string().nullable(),
  requests: z.array(
    z.object({
      id: z.number(),
      recipient: z.enum(TRANSCRIPT_RECIPIENTS),
      institution_name: z.string().nullable(),
      recipient_email: z.string(),
      requested_at: z.string(),
      state: z.enum(TRANSCRIPT_STATES),
      /** A payment started and not credited yet (the page offers to check it). */
      pending_payment: z.string().nullable(),
      reference: z.string().nullable(),
      released_at: z.string().nullable(),
      cancelled_at: z.string().nullable(),
      /**
       * A cancelled request's payment that arrived after it was cancelled: credited as money
       * received and left to the bursary to refund (decision 186).
       */
      paid_after_cancelling: z.string().nullable(),
      /** The signed page's address, once released. */
      url: z.string().nullable(),
    }),
  ),
});
export type MyTranscripts = z.infer<typeof MyTranscripts>;

/** GET /staff/transcripts: what waits for release, and the latest released. */
export const StaffTranscripts = z.object({
  awaiting_release: z.array(
    z.object({
      id: z.number(),
      student_name: z.string(),
      matric_no: z.string().nullable(),
      programme: z.string(),
      recipient: z.enum(TRANSCRIPT_RECIPIENTS),
      institution_name: z.string().nullable(),
      recipient_email: z.string(),
      requested_at: z.string(),
      paid_at: z.string(),
      payment_reference: z.string(),
    }),
  ),
  released: z.array(
    z.object({
      id: z.number(),
      student_name: z.string(),
      matric_no: z.string().nullable(),
      recipient_email: z.string(),
      reference: z.string(),
      released_at: z.string(),
    }),
  ),
});
export type StaffTranscripts = z.infer<typeof StaffTranscripts>;

/** GET /transcripts/verify/:token: the released transcript, for its public page. */
export const PublicTranscript = z.object({
  reference: z.string(),
  issued_at: z.string(),
  transcript: TranscriptSnapshot,
});
export type PublicTranscript = z.infer<typeof PublicTranscript>;

/** POST /transcripts/check: an institution types the reference and the student's matric number. */
export const TranscriptCheckBody = z.object({
  reference: z
    .string({ error: "Enter the transcript's reference." })
    .trim()
    .toUpperCase()
    .min(1, "Enter the transcript's reference.")
    .max(40, "That is not a transcript reference."),
  matric_no: z
    .string({ error: "Enter the student's matric number." })
    .trim()
    .min(1, "Enter the student's matric number, as the transcript shows it.")
    .max(40, "That is not a matric number."),
});

/** What a genuine transcript's check answers: enough to compare with the paper in hand. */
export const TranscriptCheck = z.object({
  reference: z.string(),
  issued_at: z.string(),
  name: z.string(),
  matric_no: z.string().nullable(),
  programme: z.string(),
  cgpa: z.number().nullable(),
  certificate_class: z.string().nullable(),
});
export type TranscriptCheck = z.infer<typeof TranscriptCheck>;

/** The answer to a forged, altered or unknown transcript, by token or by reference alike. */
export const NOT_GENUINE =
  "Not genuine: no transcript with these details was issued by this college.";
