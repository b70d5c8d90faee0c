import { execFile } from "node:child_process";
import { access, mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { PGlite } from "@electric-sql/pglite";
import type { PgliteThread } from "./pglite-thread.ts";
import pg from "pg";

// Backups of the portal's database (decision 130). PostgreSQL: pg_dump's custom format, restored
// by pg_restore into an empty database. PGlite: its own dump of the data folder (a gzipped tar of
// the folder, `dumpDataDir`), restored by creating a new folder from it (`loadDataDir`). Either
// holds everything: the portal's tables, the migrations journal, the job queue, stored photos
// and the Paystack sandbox's rows.

const run = promisify(execFile);
// A dump of a large database prints nothing, but an error may be long.
const OUTPUT_LIMIT = 16 * 1024 * 1024;

/** A backup or restore that cannot go ahead, with what to do about it. */
export class BackupRefused extends Error {}

/** Writes a custom-format pg_dump of the database at `url` to `file`. */
export async function dumpPostgres(url: string, file: string): Promise<void> {
  await runTool("pg_dump", ["--format=custom", `--file=${file}`], url);
}

/**
 * Restores a custom-format dump into the database at `url`, which must have no tables yet: all
 * of it in one transaction, or nothing. Owners and grants are left out, so a dump restores under
 * whichever role `url` names.
 */
export async function restorePostgres(file: string, url: string): Promise<void> {
  await access(file).catch(() => {
    throw new BackupRefused(`There is no backup at ${file}.`);
  });
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ tables: string }>(
      `select count(*) as tables from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where c.relkind in ('r', 'p') and n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg_toast%'`,
    );
    if (Number(rows[0]!.tables) > 0) {
      throw new BackupRefused(
        `The database ${client.database} already has tables. Restore into a new, empty database (createdb NAME) and point DATABASE_URL at it.`,
      );
    }
  } finally {
    await client.end();
  }
  await runTool(
    "pg_restore",
    ["--no-owner", "--no-privileges", "--single-transaction", "--exit-on-error", file],
    url,
  );
}

/** Writes PGlite's dump of its whole data folder (a gzipped tar) to `file`. */
export async function dumpPglite(pglite: PGlite | PgliteThread, file: string): Promise<void> {
  if ("dump" in pglite) return writeFile(file, await pglite.dump());
  // A dump asked for before the folder is open never settles.
  await pglite.waitReady;
  const dump = await pglite.dumpDataDir("gzip");
  await writeFile(file, Buffer.from(await dump.arrayBuffer()));
}

/**
 * Dumps the PGlite data folder `dir` to `file`. PGlite takes no lock on its folder, so this
 * refuses while the folder looks open (its postmaster.pid is there): a second process could
 * read pages the portal is halfway through writing.
 */
export async function backupPgliteFolder(dir: string, file: string): Promise<void> {
  if (!(await exists(path.join(dir, "PG_VERSION")))) {
    throw new BackupRefused(`There is no PGlite database in ${dir}. Check DATA_DIR.`);
  }
  if (await exists(path.join(dir, "postmaster.pid"))) {
    throw new BackupRefused(
      `The portal is using ${dir}: stop it (Ctrl-C) and back up again. If it is not running, it stopped without closing the database: start it once, stop it with Ctrl-C, then back up.`,
    );
  }
  const pglite = new PGlite(dir);
  try {
    await dumpPglite(pglite, file);
  } finally {
    await pglite.close();
  }
}

/** Makes `dir`, which must not exist or be empty, a PGlite data folder from the dump in `file`. */
export async function restorePgliteFolder(file: string, dir: string): Promise<void> {
  const dump = await readFile(file).catch(() => {
    throw new BackupRefused(`There is no backup at ${file}.`);
  });
  const existing = await readdir(dir).catch(() => []);
  if (existing.length > 0) {
    throw new BackupRefused(
      `${dir} is not empty. Move it aside (or set DATA_DIR to a new folder) and restore again.`,
    );
  }
  await mkdir(path.dirname(path.resolve(dir)), { recursive: true });
  let pglite: PGlite | undefined;
  try {
    pglite = new PGlite(dir, { loadDataDir: new Blob([dump]) });
    await pglite.query("select 1");
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw new BackupRefused(
      `${file} is not a PGlite backup this version can read (${String(error)}).`,
    );
  } finally {
    await pglite?.close().catch(() => undefined);
  }
}

/**
 * Runs pg_dump or pg_restore on the database at `url`. The password goes in PGPASSWORD, not on
 * the command line, where anyone on the machine could read it in the process list.
 */
async function runTool(tool: "pg_dump" | "pg_restore", args: string[], url: string) {
  const connection = new URL(url);
  const password = decodeURIComponent(connection.password);
  connection.password = "";
  // The tool inherits the portal's environment (PATH, PGSSLMODE …), with the password added.
  // eslint-disable-next-line no-restricted-properties
  const env = { ...process.env, ...(password ? { PGPASSWORD: password } : {}) };
  try {
    await run(tool, [`--dbname=${connection.toString()}`, ...args], {
      env,
      maxBuffer: OUTPUT_LIMIT,
    });
  } catch (error) {
    const failure = error as NodeJS.ErrnoException & { stderr?: string };
    if (failure.code === "ENOENT") {
      throw new Error(
        `${tool} was not found. Install the PostgreSQL client tools of your server's version or newer (Debian and Ubuntu: apt-get install postgresql-client).`,
      );
    }
    throw new Error(`${tool} failed: ${failure.stderr?.trim() || failure.message}`);
  }
}

async function exists(file: string) {
  return access(file).then(
    () => true,
    () => false,
  );
}
