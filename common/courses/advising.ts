import { z } from "zod";
import { RecordId } from "../validation/lists.ts";
import { CarryOver, Course } from "./registered-course.ts";
import type { CarryOverState } from "./carry-overs.ts";
import { semesterLabel } from "./selection.ts";
import { RegistrationLevel, SessionName } from "./requests.ts";
import {
  returnRefusal,
  spelledDate,
  windowState,
  type RegistrationWindow,
} from "./registration-window.ts";

/**
 * Where one semester of a student's registration stands for the adviser: no courses yet, waiting
 * for the adviser, approved (frozen), or sent back to the student with a note.
 */
export const ReviewStatus = z.enum(["not_submitted", "pending", "approved", "returned"], {
  error: "Choose a status: not_submitted, pending, approved or returned.",
});
export type ReviewStatus = z.infer<typeof ReviewStatus>;

export const REVIEW_STATUS_LABELS: Record<ReviewStatus, string> = {
  not_submitted: "Not submitted",
  pending: "Pending",
  approved: "Approved",
  returned: "Returned",
};

export const Semester = z.coerce
  .number({ error: "Choose semester 1 or 2." })
  .pipe(z.union([z.literal(1), z.literal(2)], { error: "Choose semester 1 or 2." }));

const StudentId = RecordId("No such student.");

/**
 * The list's status filter: "waiting" (the default) is every pending registration across sessions,
 * first submissions before semesters changed after a return; "all" is every student in a session.
 */
export const ListStatus = z.enum(["waiting", "all", ...ReviewStatus.options], {
  error: "Choose a status: waiting, all, not_submitted, pending, approved or returned.",
});
export type ListStatus = z.infer<typeof ListStatus>;

export const LIST_STATUS_LABELS: Record<ListStatus, string> = {
  waiting: "Waiting for review",
  all: "Any status",
  ...REVIEW_STATUS_LABELS,
};

/**
 * GET /staff/registrations: filters travel in the address. Without a session the waiting view
 * covers every session and the others the current session.
 */
export const RegistrationListQuery = z.object({
  session: z.union([z.literal("").transform(() => undefined), SessionName]).optional(),
  level: RegistrationLevel.optional(),
  department_id: RecordId("Choose a department from the list.").optional(),
  status: ListStatus.default("waiting"),
  page: z.coerce
    .number({ error: "Pages are numbered from 1." })
    .int()
    .min(1, "Pages are numbered from 1.")
    .max(10_000)
    .default(1),
});
export type RegistrationListQuery = z.infer<typeof RegistrationListQuery>;

export const REGISTRATION_PAGE_SIZE = 25;

/** One student's line in the list: both semesters' status and the session's units. */
export const RegistrationListRow = z.object({
  student_id: z.number(),
  session: z.string(),
  name: z.string(),
  matric_no: z.string().nullable(),
  department: z.string(),
  level: z.number(),
  total_units: z.number(),
  /** The status needing attention first: pending, then returned, approved, not submitted. */
  status: ReviewStatus,
  first_semester: ReviewStatus,
  second_semester: ReviewStatus,
  /** Pending again because the student changed it after an adviser returned it. */
  changed_since_return: z.boolean(),
});
export type RegistrationListRow = z.infer<typeof RegistrationListRow>;

export const RegistrationListPage = z.object({
  /** Null: every session (the waiting view). */
  session: z.string().nullable(),
  status: ListStatus,
  /** Every session, newest first, for the page's session filter. */
  sessions: z.array(z.string()),
  data: z.array(RegistrationListRow),
  total: z.number(),
  page: z.number(),
  page_size: z.number(),
});
export type RegistrationListPage = z.infer<typeof RegistrationListPage>;

export const StudentParam = z.object({ studentId: StudentId });
export const ReviewQuery = z.object({ session: SessionName.optional() });

/** One semester as the adviser reviews it. */
export const SemesterReview = z.object({
  semester: z.union([z.literal(1), z.literal(2)]),
  status: ReviewStatus,
  courses: z.array(Course),
  total_units: z.number(),
  approved_by: z.string().nullable(),
  approved_at: z.string().nullable(),
  returned_by: z.string().nullable(),
  returned_at: z.string().nullable(),
  note: z.string().nullable(),
});
export type SemesterReview = z.infer<typeof SemesterReview>;

/** GET /staff/registrations/{studentId}?session=… */
export const StudentRegistration = z.object({
  data: z.object({
    session: z.string(),
    student: z.object({
      id: z.number(),
      name: z.string(),
      matric_no: z.string().nullable(),
      department: z.string(),
      level: z.number(),
      programme: z.string(),
    }),
    semesters: z.array(
      SemesterReview.extend({
        /**
         * Carry-overs the semester must include and lacks, and what the adviser is told of them
         * beside Approve (decision 185); null when it lacks none or is not for review.
         */
        missing_carry_overs: z
          .object({ codes: z.array(z.string()), approvable: z.boolean(), message: z.string() })
          .nullable(),
      }),
    ),
    /**
     * The student's academic standing after their latest published semester (decision 174), or
     * null before any semester of theirs is published.
     */
    standing: z
      .object({
        session: z.string(),
        semester: z.number(),
        standing: z.enum(["good", "probation", "withdrawal"]),
        gpa: z.number(),
        cgpa: z.number(),
      })
      .nullable(),
    /** The compulsory courses failed before this session, registered or not (decision 180). */
    carry_overs: z.array(CarryOver),
    /** Whether the signed-in staff member may approve or return (an adviser within scope). */
    may_review: z.boolean(),
    /** Whether they may reopen an approved semester now, and if not (an adviser after the window), why. */
    reopen: z.object({ allowed: z.boolean(), refusal: z.string().nullable() }),
  }),
});
export type StudentRegistration = z.infer<typeof StudentRegistration>;

const SemesterRequest = z.object({ session: SessionName, semester: Semester });

const RegistrationId = z.coerce
  .number({ error: "A registration id must be a number." })
  .int("A registration id must be a whole number.")
  .positive("A registration id must be a positive number.")
  .max(2_147_483_647, "A registration id is out of range.");

/**
 * POST /staff/registrations/{studentId}/approve. `registration_ids` are the ids of the courses the
 * adviser was shown (SemesterReview.courses[].id): the approval covers those and nothing else, so
 * a semester the student changed after the page was opened is refused instead of approved unseen.
 */
export const ApproveRequest = SemesterRequest.extend({
  registration_ids: z
    .array(RegistrationId, {
      error:
        "Say which course registrations you reviewed (registration_ids); open the student's registration and approve from there.",
    })
    .max(
      200,
      "A semester has far fewer courses than that; open the student's registration and approve from there.",
    ),
});
export type ApproveRequest = z.infer<typeof ApproveRequest>;

/** POST /staff/registrations/{studentId}/return: the note is what the student reads. */
export const ReturnRequest = SemesterRequest.extend({
  note: z
    .string({ error: "Write a note telling the student what to change." })
    .trim()
    .min(5, "Write a note telling the student what to change (at least 5 characters).")
    .max(1000, "Keep the note under 1000 characters."),
});
export type ReturnRequest = z.infer<typeof ReturnRequest>;

/** POST /staff/registrations/{studentId}/reopen: the reason is what the student reads. */
export const ReopenRequest = SemesterRequest.extend({
  reason: z
    .string({ error: "Write the reason for reopening: the student reads it." })
    .trim()
    .min(5, "Write the reason for reopening (at least 5 characters): the student reads it.")
    .max(1000, "Keep the reason under 1000 characters."),
});
export type ReopenRequest = z.infer<typeof ReopenRequest>;

/**
 * Why an adviser cannot reopen an approved semester now: only while the session's registration
 * is open (the student can then change it); after that, only the registry. Null when they can.
 */
export function reopenRefusal(session: RegistrationWindow, today: string): string | null {
  switch (windowState(session, today)) {
    case "open":
      return null;
    case "not-yet-open":
      return `Course registration for ${session.name} opens on ${spelledDate(session.registrationOpensOn!)}; an adviser can reopen an approved semester only while it is open. Ask the registry if it cannot wait.`;
    case "ended":
      return `Course registration for ${session.name} closed on ${spelledDate(session.registrationClosesOn!)}; after that only the registry can reopen an approved semester.`;
    case "closed":
      return `Course registration for ${session.name} is closed; only the registry can reopen an approved semester now.`;
  }
}

/**
 * The carry-overs a semester under review must include and lacks (decision 185): required ones of
 * that semester (decision 180's plan), as when their result was published after the student
 * registered. While the student can change the semester the adviser cannot approve it and returns
 * it instead; once registration has closed the adviser may approve it, and they wait a session.
 * Null when it lacks none. The review page warns with `message`; approval refuses with it.
 */
export function missingCarryOversAtApproval(
  plan: readonly { code: string; semester: number; state: CarryOverState }[],
  semester: 1 | 2,
  session: RegistrationWindow,
  today: string,
) {
  const codes = plan
    .filter((course) => course.state === "required" && course.semester === semester)
    .map((course) => course.code);
  if (codes.length === 0) return null;
  const one = codes.length === 1;
  const it = one ? "it" : "them";
  const lacks = `The ${semesterLabel(semester)} registration for ${session.name} lacks the carry-over ${one ? "course" : "courses"} ${codes.join(", ")}`;
  const approvable = returnRefusal(session, today) !== null;
  const message = approvable
    ? `${lacks}. Registration for ${session.name} is not open, so the student cannot add ${it} now: if you approve the semester, ${one ? "it waits" : "they wait"} for the student's next session.`
    : `${lacks}, which the student must take again this semester; it cannot be approved without ${it}. Return it to the student with a note so they add ${it}.`;
  return { codes, approvable, message };
}
