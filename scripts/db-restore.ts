/**
 * Restores a backup made by `npm run db:backup`:  npm run db:restore -- FILE
 * PostgreSQL (DATABASE_URL): into that database, which must be new and empty. PGlite (DATA_DIR):
 * into DATA_DIR/pglite, which must not exist yet. Start the portal afterwards: it applies the
 * migrations of a newer version at start. Decision 130; README, "Backups".
 */
import path from "node:path";
import { ServerEnv } from "../server/env.ts";
import { restorePgliteFolder, restorePostgres } from "../server/db/backup.ts";
import { parseEnv } from "../common/config/parse-env.ts";

const file = process.argv[2];
if (!file) {
  console.error("Usage: npm run db:restore -- FILE   (a file made by npm run db:backup)");
  process.exit(2);
}
const env = parseEnv(ServerEnv.pick({ DATABASE_URL: true, DATA_DIR: true }), process.env);
try {
  if (env.DATABASE_URL) {
    await restorePostgres(file, env.DATABASE_URL);
    console.log(`Restored ${file} into the database at DATABASE_URL.`);
  } else {
    const dir = path.join(env.DATA_DIR, "pglite");
    await restorePgliteFolder(file, dir);
    console.log(`Restored ${file} into ${dir}.`);
  }
} catch (error) {
  console.error((error as Error).message);
  process.exitCode = 1;
}
