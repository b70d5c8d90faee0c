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

/** The largest id a database row can have (PostgreSQL `integer`). */
export const LARGEST_RECORD_ID = 2_147_483_647;

/**
 * A database id from an address or a filter: not a number, or not a whole positive one, is a 400
 * with `refusal`; a number past the largest id is the only "too big" refusal, which readParams
 * answers 404 (no record can have it), never passing it on to the database to fail there.
 */
export const RecordId = (refusal: string) =>
  z.coerce
    .number({ error: refusal })
    .int(refusal)
    .positive(refusal)
    .max(LARGEST_RECORD_ID, refusal);

/** `{ id }` from an address: a database id, or a refusal with `refusal` (e.g. "There is no such item."). */
export const IdParam = (refusal: string) => z.object({ id: RecordId(refusal) });
