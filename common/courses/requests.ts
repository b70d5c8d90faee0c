import { z } from "zod";
import { LEVELS } from "./selection.ts";

export const SessionName = z
  .string({ error: "Select a session" })
  .trim()
  .regex(/^\d{4}\/\d{4}$/, "Choose a session such as 2024/2025.");

export const RegistrationLevel = z.coerce
  .number({ error: "Choose a level." })
  .int("Choose a level from 100 to 500.")
  .refine(
    (level) => (LEVELS as readonly number[]).includes(level),
    "Choose a level from 100 to 500.",
  );

const Id = (what: string) =>
  z.coerce
    .number({ error: `${what} must be a number.` })
    .int(`${what} must be a whole number.`)
    .positive(`${what} must be a positive number.`)
    .max(2_147_483_647, `${what} is out of range.`);

/** POST /courses/register (spec section 3, Registration). */
export const RegisterRequest = z.object({
  courses: z
    .array(Id("A course id"), { error: "Choose the courses to register." })
    .min(1, "Choose at least one course to register.")
    .max(60, "Register at most 60 courses at a time."),
  registration_level: RegistrationLevel,
  session: SessionName,
});
export type RegisterRequest = z.infer<typeof RegisterRequest>;

/** POST /courses/reset/ (spec section 7); registration_level narrows it to one level. */
export const ResetRequest = z.object({
  registration_session: SessionName,
  semester: z.enum(["first", "second"], { error: "Choose the first or second semester." }),
  student_id: Id("The student id"),
  registration_level: RegistrationLevel.optional(),
});
export type ResetRequest = z.infer<typeof ResetRequest>;

export const StudentViewQuery = z.object({
  registration_level: RegistrationLevel.optional(),
  session: SessionName.optional(),
});

export const MappedQuery = z.object({
  mapped_level: RegistrationLevel,
  semester_int: z
    .enum(["1", "2"], { error: "Choose semester 1 or 2." })
    .transform(Number)
    .optional(),
  /** A programme id; the signed-in student's programme when left out. */
  mapped_program: Id("The programme").optional(),
});

export const CourseSearchQuery = z.object({
  code: z
    .string({ error: "Type at least 2 characters of a course code." })
    .trim()
    .min(2, "Type at least 2 characters of a course code.")
    .max(20, "A course code is at most 20 characters."),
  /** A programme id (the spec's affliate); the signed-in student's programme when left out. */
  affliate: Id("The programme").optional(),
  /** Only courses offered at this registration level. */
  level: RegistrationLevel.optional(),
});

export const SlipQuery = z.object({ session: SessionName.optional() });
export const SlipParams = z.object({ level: RegistrationLevel });
