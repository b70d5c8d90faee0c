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
    course_modifiable: z.boolean({ error: "Say whether registration is open (true) or closed (false)." }),
    opens_on: optionalDay,
    closes_on: optionalDay,
  })
  .refine((window) => !window.opens_on || !window.closes_on || window.opens_on <= window.closes_on, {
    message: "The closing date must be on or after the opening date.",
    path: ["closes_on"],
  });
export type RegistrationWindowRequest = z.infer<typeof RegistrationWindowRequest>;

const Promotion = z.object({ at: z.string(), by: z.string().nullable(), promoted: z.number(), graduating: z.number() });

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

export const PromotionPreview = z.object({
  session: z.string(),
  already: Promotion.nullable(),
  promoted: z.number(),
  graduating: z.number(),
  groups: z.array(PromotionGroup),
  students: z.array(
    z.object({ id: z.number(), name: z.string(), matric_no: z.string().nullable(), programme: z.string(), from_level: z.number(), to_level: z.number().nullable() }),
  ),
  total: z.number(),
  page: z.number(),
  page_size: z.number(),
});
export type PromotionPreview = z.infer<typeof PromotionPreview>;

export const PromotionResult = z.object({
  message: z.string(),
  data: z.object({ session: z.string(), promoted: z.number(), graduating: z.number(), groups: z.array(PromotionGroup) }),
});
