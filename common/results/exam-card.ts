import { z } from "zod";
import { Semester } from "../courses/advising.ts";

/** GET /student/exam-card?semester=1|2: without a semester, the current one (decision 181). */
export const ExamCardQuery = z.object({ semester: Semester.optional() });

/** What a student lacks for an exam card, each with where to put it right. */
export const EXAM_CARD_GAPS = [
  "no_session",
  "fee_not_paid",
  "second_installment",
  "registration_not_submitted",
  "registration_pending",
  "registration_returned",
] as const;
export type ExamCardGap = (typeof EXAM_CARD_GAPS)[number];

const Semester12 = z.union([z.literal(1), z.literal(2)]);

const CardCourse = z.object({ code: z.string(), title: z.string(), units: z.number() });

/** The card itself: what is printed and what a verification shows. */
const CardFace = z.object({
  name: z.string(),
  matric_no: z.string().nullable(),
  programme: z.string(),
  level: z.number(),
  session: z.string(),
  semester: Semester12,
  courses: z.array(CardCourse),
  total_units: z.number(),
  /** The passport photo as a data URI, so the card prints and verifies with the photo in it. */
  passport: z.string().nullable(),
});

/**
 * GET /student/exam-card: the card, or every reason it cannot be issued (never a 500 or a bare
 * 4xx: the page tells the student what is missing and links to where they put it right).
 */
export const ExamCardAnswer = z.discriminatedUnion("issued", [
  z.object({
    issued: z.literal(true),
    session: z.string(),
    semester: Semester12,
    card: CardFace,
    verify_url: z.string(),
  }),
  z.object({
    issued: z.literal(false),
    session: z.string().nullable(),
    semester: Semester12,
    missing: z
      .array(
        z.object({
          gap: z.enum(EXAM_CARD_GAPS),
          message: z.string(),
          /** The page that puts it right, e.g. /payment or /course-reg. */
          href: z.string().nullable(),
          link_label: z.string().nullable(),
        }),
      )
      .min(1),
  }),
]);
export type ExamCardAnswer = z.infer<typeof ExamCardAnswer>;

/** GET /exam-cards/verify/:token (public): the card as it holds today. */
export const ExamCardCheck = CardFace;
export type ExamCardCheck = z.infer<typeof ExamCardCheck>;

/** GET /results/verify/:token (public): who, and each published semester's GPA and CGPA. */
export const ResultsCheck = z.object({
  name: z.string(),
  matric_no: z.string().nullable(),
  programme: z.string(),
  semesters: z.array(
    z.object({
      session: z.string(),
      semester: z.number(),
      units: z.number(),
      gpa: z.number(),
      cgpa: z.number(),
    }),
  ),
});
export type ResultsCheck = z.infer<typeof ResultsCheck>;
