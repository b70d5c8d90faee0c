import { asc } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { departments, programmes } from "../../db/schema.ts";

type Place = { id: number; name: string };

// "NCE  biology/Chemistry " finds "NCE Biology/Chemistry": spreadsheets vary case and spacing.
const key = (name: string) => name.trim().replace(/\s+/g, " ").toLowerCase();

function directory(kind: string, rows: Place[]) {
  const byKey = new Map(rows.map((row) => [key(row.name), row]));
  const byId = new Map(rows.map((row) => [row.id, row]));
  return {
    rows,
    byName: (name: string) => byKey.get(key(name)),
    nameOf: (id: number) => byId.get(id)?.name ?? `#${id}`,
    has: (id: number) => byId.has(id),
    unknown: (name: string) =>
      `There is no ${kind} named "${name}". Write it as the portal lists it, e.g. "${rows[0]?.name ?? ""}".`,
  };
}

/** The college's programmes and departments, looked up by name as the college writes them. */
export async function loadPlaces(db: Database) {
  const [programmeRows, departmentRows] = await Promise.all([
    db
      .select({ id: programmes.id, name: programmes.name })
      .from(programmes)
      .orderBy(asc(programmes.name)),
    db
      .select({ id: departments.id, name: departments.name })
      .from(departments)
      .orderBy(asc(departments.name)),
  ]);
  return {
    programmes: directory("programme", programmeRows),
    departments: directory("department", departmentRows),
  };
}
export type Places = Awaited<ReturnType<typeof loadPlaces>>;
