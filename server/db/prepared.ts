import { sql, type AnyColumn, type Placeholder, type SQL } from "drizzle-orm";
import type { Database } from "./client.ts";

/**
 * A query the hottest paths run on every request, built once per database and run as a prepared
 * statement: building a query with the ORM costs more CPU than PostgreSQL spends answering it
 * (decision 112). `build` gets the database and returns `query.prepare(name)`.
 */
export function preparedQuery<T>(build: (db: Database) => T): (db: Database) => T {
  const prepared = new WeakMap<Database, T>();
  return (db) => {
    let query = prepared.get(db);
    if (!query) {
      query = build(db);
      prepared.set(db, query);
    }
    return query;
  };
}

/**
 * An optional integer filter in a prepared statement: `column = value`, or no filter when the
 * value is null, so one statement serves both (instead of one prepared per combination). The
 * column may be written as SQL (`sql\`r.level\``) where a hand-written statement aliases its tables.
 */
export const anyWhenNull = (column: AnyColumn | SQL, value: Placeholder) => sql`(${value}::integer is null or ${column} = ${value})`;
