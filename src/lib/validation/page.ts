import { z } from "zod";

/** A list's page number from the address: 1 when absent, a sentence when it is not a page. */
export const PageNumber = z.coerce
  .number({ error: "Pages are numbered from 1." })
  .int("Pages are numbered from 1.")
  .min(1, "Pages are numbered from 1.")
  .max(10_000, "Pages are numbered from 1 to 10000.")
  .default(1);

export const PageQuery = z.object({ page: PageNumber });
