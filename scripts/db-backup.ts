/**
 * Backs up the portal's database to a file:  npm run db:backup [-- FILE]
 * PostgreSQL (DATABASE_URL): pg_dump's custom format, taken while the portal runs. PGlite
 * (DATA_DIR): PGlite's dump of its data folder, taken with the portal stopped. Without FILE it
 * writes backups/portal-<time>.dump (or .tar.gz). Decision 130; README, "Backups".
 */
import { access, mkdir } from "node:fs/promises";
import path from "node:path";
import { ServerEnv } from "../server/env.ts";
import { backupPgliteFolder, dumpPostgres } from "../server/db/backup.ts";
import { parseEnv } from "../common/config/parse-env.ts";

const env = parseEnv(ServerEnv.pick({ DATABASE_URL: true, DATA_DIR: true }), process.env);
const stamp = new Date()
  .toISOString()
  .replaceAll(":", "-")
  .replace(/\.\d+Z$/, "Z");
const file =
  process.argv[2] ??
  path.join("backups", `portal-${stamp}.${env.DATABASE_URL ? "dump" : "tar.gz"}`);
try {
  if (
    await access(file).then(
      () => true,
      () => false,
    )
  )
    throw new Error(`${file} exists already: name another file.`);
  await mkdir(path.dirname(path.resolve(file)), { recursive: true });
  if (env.DATABASE_URL) await dumpPostgres(env.DATABASE_URL, file);
  else await backupPgliteFolder(path.join(env.DATA_DIR, "pglite"), file);
  console.log(`Backed up to ${file}`);
} catch (error) {
  console.error((error as Error).message);
  process.exitCode = 1;
}
