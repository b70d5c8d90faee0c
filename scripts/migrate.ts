/**
 * Applies pending migrations and exits: npm run db:migrate. In production run it with the owner
 * role's DATABASE_URL before starting the portal under its own role (README, "The audit log").
 */
import path from "node:path";
import { readServerEnv } from "../server/env.ts";
import { openDatabase } from "../server/db/client.ts";

const env = readServerEnv();
const database = env.DATABASE_URL
  ? await openDatabase({ url: env.DATABASE_URL })
  : await openDatabase({ dir: path.join(env.DATA_DIR, "pglite") });
await database.close();
console.log("The database is migrated.");
