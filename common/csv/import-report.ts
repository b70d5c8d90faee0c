import { z } from "zod";

/** One record a row updates: each field that differs, as stored (`from`) and as the file has it (`to`). */
export const RowChanges = z.object({
  row: z.number(),
  /** The record the row matched, by its natural key (a matric number). */
  key: z.string(),
  fields: z.array(
    z.object({ field: z.string(), from: z.string().nullable(), to: z.string().nullable() }),
  ),
});
export type RowChanges = z.infer<typeof RowChanges>;

/** What every staff CSV import answers (decision 081): the same shape for students, courses, fees… */
export const ImportReport = z.object({
  dry_run: z.boolean(),
  written: z.boolean(),
  created: z.number(),
  updated: z.number(),
  unchanged: z.number(),
  /** `value`: the refused cell as the file has it (the student import gives it). */
  rejected: z.array(
    z.object({
      row: z.number(),
      field: z.string(),
      message: z.string(),
      value: z.string().optional(),
    }),
  ),
  /** The student import's updates, field by field (would be made, in a dry run); other imports omit it. */
  changes: z.array(RowChanges).optional(),
  message: z.string(),
});
export type ImportReport = z.infer<typeof ImportReport>;
