import { z } from "zod";

/** What every staff CSV import answers (decision 081): the same shape for students, courses, fees… */
export const ImportReport = z.object({
  dry_run: z.boolean(),
  written: z.boolean(),
  created: z.number(),
  updated: z.number(),
  unchanged: z.number(),
  rejected: z.array(z.object({ row: z.number(), field: z.string(), message: z.string() })),
  message: z.string(),
});
export type ImportReport = z.infer<typeof ImportReport>;
