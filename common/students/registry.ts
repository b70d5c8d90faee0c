import { z } from "zod";
import { LEVELS } from "../courses/selection.ts";
import { EmailAddress, ImportedPhone, NigerianPhone } from "../validation/person.ts";

/** The first line of a student import file, exactly (docs/decisions/082). */
export const STUDENT_IMPORT_COLUMNS = [
  "matric_no",
  "application_no",
  "surname",
  "othername",
  "phone",
  "email",
  "programme",
  "department",
  "level",
  "entry_session",
  "entry_mode",
  "study_mode",
] as const;
export type StudentImportColumn = (typeof STUDENT_IMPORT_COLUMNS)[number];

// Letters (any script, with accents), spaces, hyphens, apostrophes and dots. A cell a
// spreadsheet would run as a formula (=HYPERLINK(…)) can never pass.
const NAME = /^\p{L}[\p{L}\p{M} .'’-]*$/u;
const REFERENCE = /^[A-Z0-9][A-Z0-9/.-]*$/;
const SHORT_TEXT = /^\p{L}[\p{L}\p{N} .()'-]*$/u;

const personName = (what: string) =>
  z
    .string({ error: `Enter the ${what}.` })
    .trim()
    .min(1, `Enter the ${what}.`)
    .max(80, `The ${what} is longer than 80 characters.`)
    .regex(NAME, `The ${what} may hold letters, spaces, hyphens and apostrophes only.`);

/** Matric and application numbers: stored in capitals, so one student is never two. */
const reference = (what: string, example: string) =>
  z
    .string({ error: `Enter the ${what}.` })
    .trim()
    .toUpperCase()
    .min(1, `Enter the ${what}.`)
    .max(40, `The ${what} is longer than 40 characters.`)
    .regex(REFERENCE, `A ${what} holds letters, digits, / . and - only, e.g. ${example}.`);

const shortText = (what: string, example: string) =>
  z
    .string({ error: `Enter the ${what}.` })
    .trim()
    .min(1, `Enter the ${what}.`)
    .max(40, `The ${what} is longer than 40 characters.`)
    .regex(SHORT_TEXT, `Write the ${what} in words, e.g. ${example}.`);

const LEVEL_MESSAGE = "The level must be 100, 200, 300, 400 or 500.";
const Level = z.coerce
  .number({ error: LEVEL_MESSAGE })
  .int(LEVEL_MESSAGE)
  .refine((level) => (LEVELS as readonly number[]).includes(level), LEVEL_MESSAGE);

const SESSION_MESSAGE = "Write the session as two consecutive years, e.g. 2024/2025.";
/** An academic session such as 2024/2025: two consecutive years. */
export const SessionName = z
  .string({ error: SESSION_MESSAGE })
  .trim()
  .refine((text) => {
    const years = /^(\d{4})\/(\d{4})$/.exec(text);
    return years !== null && Number(years[2]) === Number(years[1]) + 1 && Number(years[1]) >= 1960;
  }, SESSION_MESSAGE);

const placeName = (what: string) =>
  z
    .string({ error: `Enter the ${what}.` })
    .trim()
    .min(1, `Enter the ${what}.`)
    .max(120, `No ${what} has a name that long.`);

/**
 * An e-mail address, or none: many students have no mailbox. Empty means none (null); the
 * registry activates such a student from their record (decision 156).
 */
const OptionalEmail = z.union(
  [
    z
      .string()
      .trim()
      .length(0)
      .transform(() => null),
    z.null(),
    EmailAddress,
  ],
  {
    error: "Write a valid e-mail address, or leave it empty if the student has none.",
  },
);

const fields = {
  matric_no: reference("matric number", "CCE/2024/BIO/0001"),
  application_no: reference("application number", "APP/2024/00123"),
  surname: personName("surname"),
  othername: personName("other names"),
  phone: NigerianPhone,
  email: OptionalEmail,
  level: Level,
  entry_session: SessionName,
  /** Any spelling of a mode on the registry's list; the server stores the list's (decision 154). */
  entry_mode: shortText("entry mode", "UTME or Direct Entry"),
  study_mode: shortText("study mode", "Full Time"),
};

/**
 * One row of an import file as text; programme and department by name, resolved by the server.
 * Its phone also takes a number a spreadsheet stripped of its leading 0.
 */
export const StudentImportRow = z.object({
  ...fields,
  phone: ImportedPhone,
  programme: placeName("programme"),
  department: placeName("department"),
});
export type StudentImportRow = z.infer<typeof StudentImportRow>;

/** The registry's correction of a record: any of the fields, programme and department by id. */
export const UpdateStudentRequest = z
  .object({
    ...fields,
    programme_id: z.number({ error: "Choose a programme." }).int().positive("Choose a programme."),
    department_id: z
      .number({ error: "Choose a department." })
      .int()
      .positive("Choose a department."),
  })
  .partial()
  .refine((change) => Object.values(change).some((value) => value !== undefined), {
    message: "Nothing to change.",
  });
export type UpdateStudentRequest = z.infer<typeof UpdateStudentRequest>;

/** Locking needs a reason the student will read on their biodata page; unlocking clears it. */
export const BiodataLockRequest = z
  .object({
    locked: z.boolean({ error: "Say whether to lock (true) or unlock (false) the biodata." }),
    reason: z.string().trim().max(300, "Keep the reason under 300 characters.").optional(),
  })
  .refine((request) => !request.locked || (request.reason?.length ?? 0) >= 5, {
    message:
      'Give the reason the student will see, e.g. "Checked against your admission documents".',
    path: ["reason"],
  });

export const StudentSearchQuery = z.object({
  q: z.string().trim().max(100, "Search for at most 100 characters.").default(""),
  page: z.coerce
    .number({ error: "The page must be a number." })
    .int()
    .min(1)
    .max(10_000)
    .default(1),
});

/** A student as a row of the registry's search results. */
export const StudentSummary = z.object({
  id: z.number(),
  matric_no: z.string().nullable(),
  surname: z.string(),
  othername: z.string(),
  phone: z.string(),
  /** null: the student has no e-mail address. */
  email: z.string().nullable(),
  programme: z.string(),
  department: z.string(),
  level: z.number(),
  biodata_locked: z.boolean(),
  /** False until the student has chosen a password (an imported student has none). */
  activated: z.boolean(),
});
export type StudentSummary = z.infer<typeof StudentSummary>;

export const StudentSearchPage = z.object({
  data: z.array(StudentSummary),
  total: z.number(),
  page: z.number(),
  page_size: z.number(),
});
export type StudentSearchPage = z.infer<typeof StudentSearchPage>;

/** Everything the registry sees and corrects on a student's record page. */
export const StaffStudent = StudentSummary.extend({
  application_no: z.string(),
  programme_id: z.number(),
  department_id: z.number(),
  entry_session: z.string(),
  entry_mode: z.string(),
  study_mode: z.string(),
  biodata_lock_reason: z.string().nullable(),
  /** Failed sign-ins counted in the current window; at the limit the student is locked out. */
  failed_sign_ins: z.number(),
  sign_in_locked: z.boolean(),
  updated_at: z.string(),
  /** The newest activation link: when, to which address (null: shown on screen), and whether it still works. */
  last_activation_link: z
    .object({
      sent_at: z.string(),
      sent_to: z.string().nullable(),
      expires_at: z.string(),
      state: z.enum(["live", "used", "replaced", "expired", "cancelled"]),
    })
    .nullable(),
});
export type StaffStudent = z.infer<typeof StaffStudent>;

/** What POST /staff/students/import answers (docs/decisions/081): counts describe what was, or in a dry run would be, written. */

/** POST /staff/students/:id/activation-link: confirm that a link still working may be replaced. */
export const ActivationLinkRequest = z
  .object({ replace_earlier: z.boolean().optional() })
  .default({});

/** Its answer: for a student with no e-mail, the link itself, to open with the student. */
export const ActivationLinkAnswer = z.object({
  message: z.string(),
  data: z.object({ link: z.string().nullable() }).optional(),
});

export const StaffProgrammes = z.object({
  data: z.array(z.object({ id: z.number(), name: z.string() })),
});
