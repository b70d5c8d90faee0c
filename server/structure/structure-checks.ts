import { eq, sql } from "drizzle-orm";
import type { Transaction } from "../db/client.ts";
import { departments, faculties, programmes } from "../db/schema.ts";
import { ApiError } from "../http/errors.ts";
import { nameKey } from "../../common/structure/structure-cells.ts";

type Named = typeof faculties | typeof departments | typeof programmes;

/** The row with `id`, or a 404 that names what was looked for. */
export async function findById<Table extends Named>(
  tx: Transaction,
  table: Table,
  id: number,
  what: string,
): Promise<Table["$inferSelect"]> {
  const [row] = await tx
    .select()
    .from(table as Named)
    .where(eq(table.id, id));
  if (!row) throw new ApiError(404, `There is no ${what} with id ${id}. Reload the list.`);
  return row as Table["$inferSelect"];
}

/** Refuses a name another row already has, capitals and spaces aside (as imports match names). */
export async function refuseTakenName(
  tx: Transaction,
  table: Named,
  what: string,
  name: string,
  exceptId?: number,
) {
  const [taken] = await tx
    .select({ id: table.id, name: table.name })
    .from(table)
    .where(sql`lower(regexp_replace(trim(${table.name}), '\\s+', ' ', 'g')) = ${nameKey(name)}`);
  if (taken && taken.id !== exceptId) {
    throw new ApiError(409, `There is already a ${what} named "${taken.name}".`, {
      fields: { name: "Already in use." },
    });
  }
}

export async function requireFaculty(tx: Transaction, id: number) {
  const [faculty] = await tx
    .select({ id: faculties.id })
    .from(faculties)
    .where(eq(faculties.id, id));
  if (!faculty)
    throw new ApiError(400, "Choose a faculty from the list.", {
      fields: { faculty_id: "Choose a faculty." },
    });
}

/**
 * Runs a write, turning a unique violation into a 409: two officers saving the same name or code
 * at the same moment both passed the check, and the database kept only the first.
 */
export async function withUniqueNames<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    for (let cause: unknown = error; cause instanceof Error; cause = cause.cause) {
      if ((cause as { code?: string }).code === "23505") {
        throw new ApiError(
          409,
          "Someone saved the same name or code a moment ago. Reload the list and try again.",
        );
      }
    }
    throw error;
  }
}
