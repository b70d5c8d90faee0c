import { mkdir } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { drizzle as drizzlePostgres } from "drizzle-orm/node-postgres";
import { migrate as migratePostgres } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import * as schema from "./schema.ts";
import { startPgliteThread, type PgliteThread } from "./pglite-thread.ts";
import { createLogger, type Logger } from "../../common/log/logger.server.ts";
import { logLevelFromEnv } from "../env.ts";

/** How column names in TypeScript become the database's (`studentId` → `student_id`). */
export const DATABASE_CASING = "snake_case";

const migrationsFolder = fileURLToPath(new URL("./migrations", import.meta.url));
/** The advisory lock key migrations run under: any fixed number no other code uses. */
const MIGRATIONS_LOCK = 7_310_042_001;

/** The one database type the routes see: node-postgres's, on the server and on PGlite's thread alike. */
export type Database = ReturnType<typeof drizzlePostgres<typeof schema>>;
export type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];

export type DatabaseHandle = {
  db: Database;
  /** What the job queue connects through: the same embedded PGlite's thread, or the server's address. */
  jobConnection: { pglite: PgliteThread } | { url: string };
  close(): Promise<void>;
};

export type DatabaseOptions =
  /** A PostgreSQL server (the scale-out path); `logger` hears of connections lost. */
  (
    | { url: string; poolSize?: number; logger?: Logger }
    /**
     * Embedded PGlite stored in a folder, or in memory when dir is omitted (tests); `onLost` hears
     * if its thread stops without being closed (pglite-thread.ts); `fromDump` starts it from a
     * dump of a data folder (a test's migrated template) rather than an empty one.
     */
    | { dir?: string; onLost?: (error: Error) => void; fromDump?: Uint8Array }
  ) & {
    /** False in a process that starts beside others: the start script has applied them once already. */
    migrate?: boolean;
  };

/** Opens the database and applies every pending migration (unless told not to). */
export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  const migrate = options.migrate ?? true;
  if ("url" in options) {
    const pool = new pg.Pool({
      connectionString: options.url,
      // Per process. Two cores keep few queries truly running at once; more connections would
      // only queue inside PostgreSQL instead of here (decision 112).
      max: options.poolSize ?? 10,
      // A request waits at most this long for a free connection, then fails instead of piling up.
      connectionTimeoutMillis: 5_000,
      // Pages give up on the API after 10 s: a query still running then helps no one.
      statement_timeout: 10_000,
      idle_in_transaction_session_timeout: 10_000,
    });
    // An idle connection the server drops (restart, failover) must not crash the process;
    // the pool replaces it on the next query.
    const logger = options.logger ?? createLogger({ name: "database", level: logLevelFromEnv() });
    pool.on("error", (error) => logger.warn("database connection lost", { error }));
    const db = drizzlePostgres({ client: pool, schema, casing: DATABASE_CASING });
    if (migrate) {
      // On a connection of its own, without the serving pool's time limits: building an index on
      // a large table may rightly take minutes.
      const client = new pg.Client({ connectionString: options.url });
      await client.connect();
      try {
        // Instances starting together take turns: the first applies what is pending, the others
        // then find nothing left to do instead of racing to create the same tables.
        await client.query("select pg_advisory_lock($1)", [MIGRATIONS_LOCK]);
        await migratePostgres(drizzlePostgres({ client, casing: DATABASE_CASING }), {
          migrationsFolder,
        });
      } finally {
        // Ending the connection releases the lock too, should the unlock itself fail.
        await client
          .query("select pg_advisory_unlock($1)", [MIGRATIONS_LOCK])
          .catch(() => undefined);
        await client.end();
      }
    }
    return { db, jobConnection: { url: options.url }, close: () => pool.end() };
  }
  if (options.dir) await mkdir(path.resolve(options.dir), { recursive: true });
  // On a thread of its own, spoken to through node-postgres like the server (pglite-thread.ts).
  const thread = await startPgliteThread(options.dir ? path.resolve(options.dir) : undefined, {
    onLost: options.onLost,
    fromDump: options.fromDump,
  });
  const db = drizzlePostgres({ client: thread.pool, schema, casing: DATABASE_CASING });
  if (migrate) await migratePostgres(db, { migrationsFolder });
  return { db, jobConnection: { pglite: thread }, close: () => thread.close() };
}
