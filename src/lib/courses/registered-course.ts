import { z } from "zod";

/** A course as the catalogue and registration endpoints answer it (spec section 3). */
export const Course = z.object({
  id: z.number().int(),
  course_id: z.number().int(),
  code: z.string(),
  title: z.string(),
  /** Units as a numeric string, as the spec's API sends them. */
  unit: z.string(),
  semester: z.union([z.literal(1), z.literal(2)]),
  registration_level: z.number().int().optional(),
});
export type Course = z.infer<typeof Course>;
