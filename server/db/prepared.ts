import { sql, type AnyColumn, type Placeholder, type SQL } from "drizzle-orm";
import type { Database, Transaction } from "./client.ts";

/**
 * A query the hot paths run on every request, built once per database and run as a prepared
 * statement: building a query with the ORM costs more CPU than PostgreSQL spends answering it,
 * and PostgreSQL parses and plans an unnamed statement anew each time (decision 137). `build`
 * gets the database and returns `query.prepare(name)`.
 *
 * Given a transaction instead, the same prepared query runs on the transaction's connection,
 * so statements inside a transaction are prepared too (drizzle would build them anew for each
 * transaction). This reaches into drizzle's objects (where a database keeps its pool and a
 * transaction its connection); a changed drizzle fails loudly here and in prepared.api.test.ts.
 */
export function preparedQuery<T extends object>(
  build: (db: Database) => T,
): (db: Database | Transaction) => T {
  // Keyed by the database's SQL dialect, which its transactions share with it: a query prepared
  // in a transaction serves the database and its later transactions as well.
  const prepared = new WeakMap<object, T>();
  return (db) => {
    const { dialect, connection } = driverParts(db);
    let query = prepared.get(dialect);
    if (!query) {
      query = build(db as Database);
      if (!("client" in query)) throw new Error(DRIZZLE_CHANGED);
      prepared.set(dialect, query);
    }
    // A view of the prepared query whose driver calls go to this database's pool or to this
    // transaction's connection.
    return (query as { client: unknown }).client === connection
      ? query
      : (Object.create(query, { client: { value: connection } }) as T);
  };
}

const DRIZZLE_CHANGED =
  "drizzle's databases, transactions or prepared queries no longer keep their connection where server/db/prepared.ts looks for it";

type DriverParts = { dialect?: object; session?: { client?: { query?: unknown } } };

/** The dialect a database shares with its transactions, and the pool or connection it runs on. */
function driverParts(db: Database | Transaction) {
  const { dialect, session } = db as unknown as DriverParts;
  const connection = session?.client;
  if (typeof dialect !== "object" || typeof connection?.query !== "function")
    throw new Error(DRIZZLE_CHANGED);
  return { dialect, connection };
}

/**
 * An optional integer filter in a prepared statement: `column = value`, or no filter when the
 * value is null, so one statement serves both (instead of one prepared per combination). The
 * column may be written as SQL (`sql\`r.level\``) where a hand-written statement aliases its tables.
 */
export const anyWhenNull = (column: AnyColumn | SQL, value: Placeholder) =>
  sql`(${value}::integer is null or ${column} = ${value})`;

/**
 * A placeholder where drizzle's types take only a value or SQL (an UPDATE's SET): the driver
 * gets the value as the statement's caller gives it, without the column's own conversion.
 */
export const placeholderValue = (name: string) => sql`${sql.placeholder(name)}`;
