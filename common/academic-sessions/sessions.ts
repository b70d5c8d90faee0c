import { z } from "zod";

/** "2025/2026": two consecutive years. */
export const SessionName = z
  .string({ error: "Enter the session, like 2025/2026." })
  .trim()
  .refine((name) => {
    const match = /^(\d{4})\/(\d{4})$/.exec(name);
    return match !== null && Number(match[2]) === Number(match[1]) + 1;
  }, "Write the session as two consecutive years, like 2025/2026.");

/** The session after `newest` ("2024/2025" → "2025/2026"); the first one from `year` when there is none. */
export function nextSessionName(newest: string | undefined, year: number) {
  const start = newest ? Number(newest.slice(0, 4)) + 1 : year;
  return `${start}/${start + 1}`;
}

export const CreateSessionRequest = z.object({ name: SessionName });

const day = z.iso.date({ error: "Write dates as YYYY-MM-DD." });
/** An empty date field means "no date": registration is bounded only by the switch on that side. */
const optionalDay = z.union([z.literal("").transform(() => null), z.null(), day]).default(null);

export const RegistrationWindowRequest = z
  .object({
    course_modifiable: z.boolean({
      error: "Say whether registration is open (true) or closed (false).",
    }),
    opens_on: optionalDay,
    closes_on: optionalDay,
  })
  .refine(
    (window) => !window.opens_on || !window.closes_on || window.opens_on <= window.closes_on,
    {
      message: "The closing date must be on or after the opening date.",
      path: ["closes_on"],
    },
  );
export type RegistrationWindowRequest = z.infer<typeof RegistrationWindowRequest>;

const Promotion = z.object({
  at: z.string(),
  by: z.string().nullable(),
  promoted: z.number(),
  graduating: z.number(),
});

/** A session as the registry's sessions page lists it. */
export const StaffSession = z.object({
  id: z.number(),
  name: z.string(),
  is_current: z.boolean(),
  course_modifiable: z.boolean(),
  registration_opens_on: z.string().nullable(),
  registration_closes_on: z.string().nullable(),
  /** What a student meets today: closed, not-yet-open, open or ended. */
  window: z.enum(["closed", "not-yet-open", "open", "ended"]),
  /** When students' levels were set for this session; null until the promotion runs. */
  promotion: Promotion.nullable(),
});
export type StaffSession = z.infer<typeof StaffSession>;

export const StaffSessionPage = z.object({
  data: z.array(StaffSession),
  /** The current session's name, wherever it is in the list. */
  current: z.string().nullable(),
  total: z.number(),
  page: z.number(),
  page_size: z.number(),
  next_name: z.string(),
});

/** One group of students who move together: a programme and level, and where they go. */
export const PromotionGroup = z.object({
  programme: z.string(),
  from_level: z.number(),
  /** null: final-year students, marked as graduating instead of moving up. */
  to_level: z.number().nullable(),
  students: z.number(),
});
export type PromotionGroup = z.infer<typeof PromotionGroup>;

/** A student held back at their level (a repeat year), as the confirmation page lists them. */
export const HeldStudent = z.object({
  id: z.number(),
  name: z.string(),
  matric_no: z.string(),
  level: z.number(),
});
export type HeldStudent = z.infer<typeof HeldStudent>;

/** How long after a promotion the registry may still undo it (decision 158). */
export const PROMOTION_UNDO_DAYS = 7;

/** The promotion in force for the session, when it was run on the portal (and so can be undone). */
export const PromotionRun = z.object({
  id: z.number(),
  at: z.string(),
  by: z.string(),
  held: z.number(),
  /** The last moment the undo is accepted; it is refused after. */
  undo_until: z.string(),
});

export const PromotionPreview = z.object({
  session: z.string(),
  already: Promotion.nullable(),
  /** Set when `already` came from a run on the portal; null for levels set when the portal began. */
  run: PromotionRun.nullable(),
  promoted: z.number(),
  graduating: z.number(),
  held: z.array(HeldStudent),
  groups: z.array(PromotionGroup),
  students: z.array(
    z.object({
      id: z.number(),
      name: z.string(),
      matric_no: z.string().nullable(),
      programme: z.string(),
      from_level: z.number(),
      to_level: z.number().nullable(),
    }),
  ),
  total: z.number(),
  page: z.number(),
  page_size: z.number(),
});
export type PromotionPreview = z.infer<typeof PromotionPreview>;

const MatricNumber = z
  .string()
  .trim()
  .min(1)
  .max(60, "A matriculation number is at most 60 characters.");

/**
 * POST /staff/sessions/{id}/promotion (and …/promotion/check, which previews the same):
 * the matriculation numbers of students who stay at their level this session.
 */
export const PromotionRequest = z.object({
  hold: z
    .array(MatricNumber, {
      error: "List the matriculation numbers of students to hold back (hold).",
    })
    .max(5000, "Hold back at most 5,000 students at once.")
    .default([]),
});
export type PromotionRequest = z.infer<typeof PromotionRequest>;

/**
 * Matriculation numbers from what the registry typed or uploaded: one a line (or separated by
 * commas or semicolons, as a pasted spreadsheet column or a one-column CSV gives them), without
 * blanks, quotes, a "matric_no" header or repeats (compared without regard to case).
 */
export function matricNumbersFrom(text: string): string[] {
  const seen = new Map<string, string>();
  for (const cell of text.replace(/^\uFEFF/, "").split(/[\r\n,;\t]+/)) {
    const value = cell
      .trim()
      .replace(/^"(.*)"$/, "$1")
      .trim();
    if (!value || /^matric(ulation)?[ _.-]*(no|number)\.?$/i.test(value)) continue;
    if (!seen.has(value.toLowerCase())) seen.set(value.toLowerCase(), value);
  }
  return [...seen.values()];
}

export const PromotionResult = z.object({
  message: z.string(),
  data: z.object({
    session: z.string(),
    promoted: z.number(),
    graduating: z.number(),
    held: z.number(),
    groups: z.array(PromotionGroup),
  }),
});

/** A student the undo left as they are: their level or stage was changed after the promotion. */
export const KeptStudent = z.object({
  id: z.number(),
  name: z.string(),
  matric_no: z.string().nullable(),
  promoted_to: z.string(),
  now: z.string(),
});
export type KeptStudent = z.infer<typeof KeptStudent>;

/** GET /staff/sessions/{id}/promotion/undo: what undoing the promotion in force would do. */
export const UndoPreview = z.object({
  session: z.string(),
  run: PromotionRun,
  restored: z.number(),
  kept: z.array(KeptStudent),
});
export type UndoPreview = z.infer<typeof UndoPreview>;

export const UndoResult = z.object({
  message: z.string(),
  data: z.object({ restored: z.number(), kept: z.array(KeptStudent) }),
});

/** Where a student stands, in words: "200 level", or "300 level, graduating". */
export const standing = (level: number, stage: string) =>
  stage === "student" ? `${level} level` : `${level} level, ${stage}`;

/** What making a session current changes for students, said on the confirmation page and after it. */
export const currentSessionChanges = (next: string) =>
  `Students' course registration and school-fee payments move to ${next}: the course registration page, the payment page and the dashboard open on ${next}.`;

/** Whether a session may be made current: only one newer than the current session (decision 157). */
export const mayBecomeCurrent = (
  session: { name: string; is_current: boolean },
  current: string | null,
) => !session.is_current && (current === null || session.name > current);

export const madeCurrentMessage = (next: string, previous: string | null) =>
  `${next} is now the current session${previous ? ` in place of ${previous}` : ""}. ${currentSessionChanges(next)} Students' levels change only when you promote them for ${next}.`;

/**
 * The college's sessions for a staff page's session list: newest first, with the current one
 * (chosen by default) when the registry has set it.
 */
export const SessionChoices = z.object({
  sessions: z.array(z.string()),
  current: z.string().nullable(),
});
export type SessionChoices = z.infer<typeof SessionChoices>;
