import { z } from "zod";
import { Semester } from "../courses/advising.ts";
import { SessionName } from "../academic-sessions/sessions.ts";
import { IdParam, RecordId } from "../validation/lists.ts";
import { SPECIAL_MARKS } from "./grading.ts";

/** Where a course's result stands: with its lecturers, with the head of department, or done. */
export const RESULT_STATUSES = ["open", "submitted", "approved", "published"] as const;
export type ResultStatus = (typeof RESULT_STATUSES)[number];

export const RESULT_STATUS_LABELS: Record<ResultStatus, string> = {
  open: "Being entered",
  submitted: "Submitted to the head of department",
  approved: "Approved by the head of department",
  published: "Published",
};

export const OfferingParam = IdParam("There is no such course result.");

/** POST /staff/results/offerings: the registry assigns a course's lecturers for a semester. */
export const AssignLecturersRequest = z.object({
  course_id: RecordId("Choose a course from the list."),
  session: SessionName,
  semester: Semester,
  department_id: RecordId("Choose the department whose head approves the result."),
  lecturer_ids: z
    .array(RecordId("Choose lecturers from the list."), { error: "Choose at least one lecturer." })
    .min(1, "Choose at least one lecturer.")
    .max(10, "A course can have at most 10 lecturers."),
});
export type AssignLecturersRequest = z.input<typeof AssignLecturersRequest>;
export type LecturerAssignment = z.output<typeof AssignLecturersRequest>;

/** A mark as typed: empty is "not entered yet"; anything else must be a whole number. */
const Mark = (what: string) =>
  z.preprocess(
    (value) => (value === "" || value === undefined ? null : value),
    z.coerce
      .number({ error: `${what} must be a whole number.` })
      .int(`${what} must be a whole number.`)
      .nullable(),
  );

/** A special mark as chosen: empty is none. */
const SpecialMarkInput = z.preprocess(
  (value) => (value === "" || value === undefined ? null : value),
  z.enum(SPECIAL_MARKS, { error: "A special mark is ABS, I or S." }).nullable(),
);

/** One student's row of a score sheet, as the lecturer saves it. */
export const ScoreEntry = z
  .object({
    student_id: RecordId("No such student on this course."),
    ca: Mark("CA"),
    exam: Mark("Exam"),
    special: SpecialMarkInput,
  })
  .refine((entry) => entry.exam === null || entry.special === null, {
    path: ["special"],
    message: "Enter an exam score or a special mark (ABS, I, S), not both.",
  });
export type ScoreEntry = z.infer<typeof ScoreEntry>;

/** PUT /staff/results/offerings/{id}/scores: some or all rows; rows not sent are unchanged. */
export const SaveScoresRequest = z.object({
  scores: z
    .array(ScoreEntry, { error: "Send the scores as a list." })
    .min(1, "Enter at least one score.")
    .max(2000, "Save at most 2000 scores at once."),
});
export type SaveScoresRequest = z.input<typeof SaveScoresRequest>;
export type ScoresToSave = z.output<typeof SaveScoresRequest>;

/** A course's score sheet as its lecturers (and later the head of department) read it. */
export const ScoreSheet = z.object({
  offering: z.object({
    id: z.number(),
    course_code: z.string(),
    course_title: z.string(),
    units: z.number(),
    session: z.string(),
    semester: z.number(),
    status: z.enum(RESULT_STATUSES),
    /** The head of department's note when they returned it; null otherwise. */
    return_note: z.string().nullable(),
  }),
  ca_max: z.number(),
  exam_max: z.number(),
  /** Whether the signed-in lecturer may still change it (it is open). */
  may_edit: z.boolean(),
  rows: z.array(
    z.object({
      student_id: z.number(),
      matric_no: z.string().nullable(),
      name: z.string(),
      ca: z.number().nullable(),
      exam: z.number().nullable(),
      special: z.enum(SPECIAL_MARKS).nullable(),
      /** Null until the exam or a special mark is entered. */
      total: z.number().nullable(),
      grade: z.string().nullable(),
      point: z.number().nullable(),
    }),
  ),
});
export type ScoreSheet = z.infer<typeof ScoreSheet>;

/** One course a lecturer teaches, as their list of courses shows it. */
export type LecturerOffering = ScoreSheet["offering"] & { students: number; entered: number };

/** POST /staff/results/department-heads: the registry names a department's head. */
export const DepartmentHeadRequest = z.object({
  department_id: RecordId("Choose a department from the list."),
  staff_id: RecordId("Choose a head from the list."),
});

/** POST /staff/results/review/{id}/return: why the head of department sends it back. */
export const ReturnResultRequest = z.object({
  note: z
    .string({ error: "Say what the lecturers should correct." })
    .trim()
    .min(1, "Say what the lecturers should correct.")
    .max(1000, "Keep the note under 1000 characters."),
});

/** How a result's grades fall: each grade's count (the scheme's, then ABS, I, S) and the mean total. */
export const GradeDistribution = z.object({
  counts: z.array(z.object({ grade: z.string(), count: z.number() })),
  mean: z.number().nullable(),
});
export type GradeDistribution = z.infer<typeof GradeDistribution>;

/** What a head of department reviews: the sheet, its distribution, and earlier sessions' means. */
export const ReviewedResult = z.object({
  sheet: ScoreSheet,
  distribution: GradeDistribution,
  /** Up to three earlier sessions of the same course, newest first. */
  earlier: z.array(z.object({ session: z.string(), mean: z.number().nullable() })),
});
export type ReviewedResult = z.infer<typeof ReviewedResult>;

/** GET /staff/results/review: the head's departments' results sent to them or approved. */
export const ResultsToReview = z.array(
  z.object({
    id: z.number(),
    course_code: z.string(),
    course_title: z.string(),
    session: z.string(),
    semester: z.number(),
    status: z.enum(RESULT_STATUSES),
    submitted_at: z.string().nullable(),
  }),
);
export type ResultsToReview = z.infer<typeof ResultsToReview>;

/** A programme's semester, as the exams office chooses it. */
export const SemesterChoice = z.object({
  programme_id: RecordId("Choose a programme from the list."),
  session: SessionName,
  semester: Semester,
});
export type SemesterChoice = z.output<typeof SemesterChoice>;

/** POST /staff/results/publish: the semester, and the academic board's approval of it. */
export const PublishRequest = SemesterChoice.extend({
  board_meeting_on: z.iso.date({
    error: "Enter the date of the board's meeting, like 2025-03-14.",
  }),
  minute_reference: z
    .string({ error: "Enter the board's minute reference." })
    .trim()
    .min(1, "Enter the board's minute reference.")
    .max(100, "Keep the minute reference under 100 characters."),
});
export type PublishRequest = z.output<typeof PublishRequest>;

export const STANDINGS = ["good", "probation", "withdrawal"] as const;

/** A programme's semester computed for the academic board (GET /staff/results/computed). */
export const ComputedResults = z.object({
  programme: z.string(),
  session: z.string(),
  semester: z.number(),
  /** Courses not yet approved by their head of department, with where each stands. */
  waiting: z.array(z.object({ course_code: z.string(), status: z.string() })),
  published: z
    .object({
      board_meeting_on: z.string(),
      minute_reference: z.string(),
      published_at: z.string(),
    })
    .nullable(),
  students: z.array(
    z.object({
      student_id: z.number(),
      matric_no: z.string().nullable(),
      name: z.string(),
      level: z.number(),
      units: z.number(),
      gpa: z.number().nullable(),
      cgpa: z.number().nullable(),
      standing: z.enum(STANDINGS).nullable(),
      carry_overs: z.array(z.string()),
    }),
  ),
});
export type ComputedResults = z.infer<typeof ComputedResults>;

/** GET /staff/results/overview: where each department's course results stand in a semester. */
export const ApprovalOverview = z.object({
  departments: z.array(
    z.object({
      department: z.string(),
      open: z.number(),
      submitted: z.number(),
      approved: z.number(),
      courses: z.array(
        z.object({
          id: z.number(),
          course_code: z.string(),
          course_title: z.string(),
          status: z.enum(RESULT_STATUSES),
        }),
      ),
    }),
  ),
  published: z.array(z.object({ programme: z.string(), published_at: z.string() })),
});
export type ApprovalOverview = z.infer<typeof ApprovalOverview>;

/** One graded course of a semester: what results, the board's copy and transcripts print. */
export const CourseResult = z.object({
  course_code: z.string(),
  course_title: z.string(),
  units: z.number(),
  ca: z.number().nullable(),
  exam: z.number().nullable(),
  total: z.number().nullable(),
  grade: z.string(),
  point: z.number().nullable(),
});
export type CourseResult = z.infer<typeof CourseResult>;

/** One course of a published semester, as the student's results show it. */
const ResultLine = CourseResult.extend({
  /** Changes made to this published score, oldest first: the record keeps them for good. */
  amendments: z.array(
    z.object({ from: z.string(), to: z.string(), reason: z.string(), applied_at: z.string() }),
  ),
});

/** GET /student/results: the student's published semesters, newest first, and those withheld. */
export const MyResults = z.object({
  semesters: z.array(
    z.object({
      session: z.string(),
      semester: z.number(),
      gpa: z.number(),
      cgpa: z.number(),
      units: z.number(),
      cumulative_units: z.number(),
      standing: z.enum(STANDINGS),
      carry_overs: z.array(z.string()),
      courses: z.array(ResultLine),
    }),
  ),
  /** Published semesters held back until a fee is paid, with why (the page links to Payments). */
  withheld: z.array(z.object({ session: z.string(), semester: z.number(), reason: z.string() })),
  /** The signed public link printed as a QR on the results; null while nothing is shown. */
  verify_url: z.string().nullable(),
});
export type MyResults = z.infer<typeof MyResults>;

export const STANDING_LABELS: Record<MyResults["semesters"][number]["standing"], string> = {
  good: "Good standing",
  probation: "Probation",
  withdrawal: "Withdrawal",
};

/** POST /staff/results/offerings/{id}/amendments: a published score's proposed change. */
export const AmendmentRequest = z
  .object({
    student_id: RecordId("No such student on this course."),
    ca: Mark("CA"),
    exam: Mark("Exam"),
    special: SpecialMarkInput,
    reason: z
      .string({ error: "Say why the score changes." })
      .trim()
      .min(5, "Say why the score changes.")
      .max(1000, "Keep the reason under 1000 characters."),
  })
  .refine((entry) => entry.exam === null || entry.special === null, {
    path: ["special"],
    message: "Enter an exam score or a special mark (ABS, I, S), not both.",
  });
export type AmendmentRequest = z.output<typeof AmendmentRequest>;

export const AmendmentParam = IdParam("There is no such amendment.");

/** The head's or the exams office's decision; a decline needs a note. */
export const AmendmentDecision = z.object({
  approve: z.boolean({ error: "Choose to approve or decline." }),
  note: z
    .string()
    .trim()
    .max(1000, "Keep the note under 1000 characters.")
    .nullish()
    .transform((note) => note || null),
});

export const AMENDMENT_STATUSES = ["proposed", "endorsed", "applied", "declined"] as const;

export const AMENDMENT_STATUS_LABELS: Record<(typeof AMENDMENT_STATUSES)[number], string> = {
  proposed: "Waiting for the head of department",
  endorsed: "Endorsed: waiting for the exams office",
  applied: "Applied",
  declined: "Declined",
};

/** An amendment as the staff lists show it, with who did each step. */
export const AmendmentRow = z.object({
  id: z.number(),
  course_code: z.string(),
  session: z.string(),
  semester: z.number(),
  matric_no: z.string().nullable(),
  student_name: z.string(),
  /** "CA / exam" (or the special mark) before and after. */
  from: z.string(),
  to: z.string(),
  reason: z.string(),
  status: z.enum(AMENDMENT_STATUSES),
  proposed_by: z.string(),
  proposed_by_id: z.number(),
  proposed_at: z.string(),
  endorsed_by: z.string().nullable(),
  endorsed_by_id: z.number().nullable(),
  applied_by: z.string().nullable(),
  declined_by: z.string().nullable(),
  decline_note: z.string().nullable(),
});
export type AmendmentRow = z.infer<typeof AmendmentRow>;
/** GET /staff/results/amendments. */
export const AmendmentRows = z.array(AmendmentRow);
