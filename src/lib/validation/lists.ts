import { z } from "zod";

/** A list's page number from the address: 1 when absent, a sentence when it is not a page. */
export const PageNumber = z.coerce
  .number({ error: "Pages are numbered from 1." })
  .int("Pages are numbered from 1.")
  .min(1, "Pages are numbered from 1.")
  .max(10_000, "Pages are numbered from 1 to 10000.")
  .default(1);

export const PageQuery = z.object({ page: PageNumber });

/** One page of a list as the API answers it: the rows, how many there are in all, and where we are. */
export const Paged = <T extends z.ZodType>(row: T) =>
  z.object({ data: z.array(row), total: z.number(), page: z.number(), page_size: z.number() });

/** `{ id }` from an address: a database id, or a 400 with `refusal` (e.g. "There is no such item."). */
export const IdParam = (refusal: string) =>
  z.object({
    id: z.coerce.number({ error: refusal }).int(refusal).positive(refusal).max(2_147_483_647, refusal),
  });
