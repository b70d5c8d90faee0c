import { z } from "zod";

/** The two lists of modes the registry keeps (decision 154). */
export const MODE_KINDS = {
  study: { label: "study mode", plural: "study modes", example: "Part-Time" },
  entry: { label: "entry mode", plural: "entry modes", example: "Direct Entry" },
} as const;
export type ModeKind = keyof typeof MODE_KINDS;

/**
 * A mode's matching key: accents dropped, lower case, letters and digits only. "Part-Time",
 * "part time", "PART TIME" and "Parttime" share the key "parttime", so they are one mode. The
 * database computes the same key for the lists' unique index (server/db/schema.ts).
 */
export function modeKey(name: string): string {
  return name
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[^a-z0-9]/g, "");
}

/** Spaces tidied: the spelling a list keeps. */
export const tidyModeName = (name: string) => name.trim().replace(/\s+/g, " ");

/** A mode's name as the registry writes it: letters first, at most 40 characters. */
export const modeName = (what: string) =>
  z
    .string({ error: `Enter the ${what}.` })
    .transform(tidyModeName)
    .pipe(
      z
        .string()
        .min(1, `Enter the ${what}.`)
        .max(40, `The ${what} is longer than 40 characters.`)
        .regex(
          /^\p{L}[\p{L}\p{N} .()'/-]*$/u,
          `Write the ${what} in words, e.g. ${what === "entry mode" ? "Direct Entry" : "Part-Time"}.`,
        )
        .refine(
          (name) => modeKey(name).length > 0,
          `Write the ${what} in letters, e.g. ${what === "entry mode" ? "Direct Entry" : "Part-Time"}.`,
        ),
    );

/** POST /staff/modes/:kind and PATCH /staff/modes/:kind/:id: the name. */
export const ModeRequest = z.object({ name: modeName("name") });

export const ModeKindParam = z.object({
  kind: z.enum(["study", "entry"], { error: "There are study modes and entry modes only." }),
});

export const StaffMode = z.object({
  id: z.number(),
  name: z.string(),
  students: z.number(),
  fees: z.number(),
});
export type StaffMode = z.infer<typeof StaffMode>;
export const ModeLists = z.object({ study: z.array(StaffMode), entry: z.array(StaffMode) });
export type ModeLists = z.infer<typeof ModeLists>;

/** The refusal for a mode that is not on the list, naming the ones that are. */
export function unknownMode(kind: ModeKind, written: string, known: readonly string[]): string {
  const { label, plural } = MODE_KINDS[kind];
  const list = known.length ? known.map((name) => `"${name}"`).join(", ") : "none yet";
  return `There is no ${label} "${written}". The registry's ${plural} are: ${list}. The registry adds new ones under Academic structure → Modes.`;
}
