import { z } from "zod";
import { SessionName } from "../academic-sessions/sessions.ts";
import { SPECIAL_MARKS, schemeProblem, type GradingScheme } from "./grading.ts";

// A box left blank is a missing number, not 0.
const blankIsMissing = (value: unknown) => (value === "" ? undefined : value);

const whole = (what: string, min: number, max: number) =>
  z.preprocess(
    blankIsMissing,
    z.coerce
      .number({ error: `${what} must be a number.` })
      .int(`${what} must be a whole number.`)
      .min(min, `${what} must be at least ${min}.`)
      .max(max, `${what} must be at most ${max}.`),
  );

const decimal = (what: string, min: number, max: number) =>
  z.preprocess(
    blankIsMissing,
    z.coerce
      .number({ error: `${what} must be a number.` })
      .min(min, `${what} must be at least ${min}.`)
      .max(max, `${what} must be at most ${max}.`),
  );

const Name = (what: string, max: number) =>
  z
    .string({ error: `Enter the ${what}.` })
    .trim()
    .min(1, `Enter the ${what}.`)
    .max(max, `Keep the ${what} under ${max + 1} characters.`);

/**
 * A grading scheme as the exams office sets it (decision 183): the same shape the rules read,
 * checked field by field here and as a whole by `schemeProblem` (bands cover 0–100 once each).
 */
export const GradingSchemeInput = z
  .object({
    caMax: whole("The CA maximum", 0, 100),
    examMax: whole("The exam maximum", 0, 100),
    bands: z
      .array(
        z.object({
          grade: Name("grade", 2),
          min: whole("A band's lowest mark", 0, 100),
          max: whole("A band's highest mark", 0, 100),
          point: whole("A grade point", 0, 10),
        }),
        { error: "List the grades." },
      )
      .min(2, "List at least two grades: one that passes and one that fails.")
      .max(12, "List at most 12 grades."),
    passPoint: whole("The pass grade point", 0, 10),
    special: z.object(
      Object.fromEntries(
        SPECIAL_MARKS.map((mark) => [mark, z.object({ countsAsFail: z.boolean() })]),
      ) as Record<(typeof SPECIAL_MARKS)[number], z.ZodObject<{ countsAsFail: z.ZodBoolean }>>,
    ),
    retakes: z.enum(["every-attempt", "best-attempt"], {
      error: "Choose how a retaken course counts.",
    }),
    probationBelowCgpa: decimal("The probation CGPA", 0, 10),
    certificateClasses: z
      .array(
        z.object({
          name: Name("class of certificate", 40),
          minCgpa: decimal("A class's CGPA", 0, 10),
        }),
        { error: "List the classes of certificate." },
      )
      .min(1, "List at least one class of certificate.")
      .max(10, "List at most 10 classes of certificate."),
  })
  .superRefine((scheme, context) => {
    const problem = schemeProblem(scheme as GradingScheme);
    if (problem) context.addIssue({ code: "custom", path: ["bands"], message: problem });
    const classes = scheme.certificateClasses;
    if (classes.some((each, i) => i > 0 && each.minCgpa >= classes[i - 1]!.minCgpa))
      context.addIssue({
        code: "custom",
        path: ["certificateClasses"],
        message: "List the classes of certificate highest first, each from a lower CGPA.",
      });
    if (classes.at(-1)?.minCgpa !== 0)
      context.addIssue({
        code: "custom",
        path: ["certificateClasses"],
        message: "The lowest class of certificate must start at a CGPA of 0.",
      });
  });

/** POST /staff/results/grading-schemes: the scheme results are graded by from a session on. */
export const SetGradingSchemeRequest = z.object({
  from_session: SessionName,
  scheme: GradingSchemeInput,
});
export type SetGradingSchemeRequest = z.input<typeof SetGradingSchemeRequest>;

/** GET /staff/results/grading-schemes: what the college set, and what applies without one. */
export const GradingSchemeList = z.object({
  /** The NCE scale, in force for every session before the first scheme set. */
  default: GradingSchemeInput,
  schemes: z.array(
    z.object({
      from_session: z.string(),
      scheme: GradingSchemeInput,
      set_by: z.string().nullable(),
      set_at: z.string(),
    }),
  ),
  /** Every session, oldest first: where a scheme can start. */
  sessions: z.array(z.string()),
});
export type GradingSchemeList = z.infer<typeof GradingSchemeList>;

/** The scheme a session's results are graded by: the newest set from it or before, else the default. */
export function schemeInForce(list: GradingSchemeList, session: string): GradingScheme {
  const set = list.schemes
    .filter((each) => each.from_session <= session)
    .sort((a, b) => b.from_session.localeCompare(a.from_session))[0];
  return (set?.scheme ?? list.default) as GradingScheme;
}
