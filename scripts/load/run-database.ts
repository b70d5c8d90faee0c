import { randomBytes } from "node:crypto";
import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import { DATABASE_CASING, type Database, type DatabaseHandle } from "../../server/db/client.ts";
import * as schema from "../../server/db/schema.ts";

/** A PostgreSQL database made for one run, so the run starts empty and leaves nothing behind. */
export type RunDatabase = { name: string; url: string; drop(): Promise<void> };

/**
 * Creates `load_<random>` on the server `serverUrl` points at (its own database is only used to
 * connect) and answers its address; `drop()` removes it, ending any connection still open.
 */
export async function createRunDatabase(serverUrl: string): Promise<RunDatabase> {
  const name = `load_${randomBytes(4).toString("hex")}`;
  await withClient(serverUrl, (client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: () =>
      withClient(serverUrl, (client) =>
        client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
      ).then(() => undefined),
  };
}

/**
 * Whether a PostgreSQL address names this machine: a loopback address, or a Unix socket folder
 * (`?host=/var/run/postgresql`), where a run can read PostgreSQL's own CPU.
 */
export function databaseOnThisMachine(databaseUrl: string): boolean {
  const url = new URL(databaseUrl);
  if (url.searchParams.get("host")?.startsWith("/")) return true;
  return url.hostname === "localhost" || url.hostname === "[::1]" || /^127\./.test(url.hostname);
}

/** "PostgreSQL 16.4" from the server's version string. */
export async function serverVersion(url: string): Promise<string> {
  const result = await withClient(url, (client) =>
    client.query<{ server_version: string }>("SHOW server_version"),
  );
  return `PostgreSQL ${result.rows[0]?.server_version.split(" ")[0] ?? "?"}`;
}

async function withClient<T>(url: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

/**
 * A running portal's PostgreSQL database, opened without migrating: that portal migrated it
 * itself, and a --database-url pointing at the wrong database must not be given the portal's
 * tables. Refuses a database in which the portal's tables are missing.
 */
export async function openTargetDatabase(
  url: string,
): Promise<Pick<DatabaseHandle, "db" | "close">> {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  const tables = await pool.query<{ found: string | null }>(
    "SELECT to_regclass('public.students')::text AS found",
  );
  if (!tables.rows[0]?.found) {
    await pool.end();
    throw new Error(
      `${new URL(url).pathname.slice(1)} holds no portal tables: give --database-url the database the target portal uses.`,
    );
  }
  const db = drizzle({ client: pool, schema, casing: DATABASE_CASING });
  // The same cast as openDatabase: both drivers expose one query builder.
  return { db: db as unknown as Database, close: () => pool.end() };
}
