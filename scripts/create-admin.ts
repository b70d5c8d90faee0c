/**
 * Creates the first staff administrator of a new installation and prints the link where they
 * choose a password:  npm run staff:first-admin -- "Aisha Lawal" ict@college.edu.ng
 * Uses the same settings as the portal (DATABASE_URL or DATA_DIR, PUBLIC_ORIGIN).
 */
import path from "node:path";
import { z } from "zod";
import { readServerEnv } from "../server/env.ts";
import { openDatabase } from "../server/db/client.ts";
import { createFirstAdmin } from "../server/staff/first-admin.ts";

const [name = "", email = ""] = process.argv.slice(2);
const valid = z
  .object({ name: z.string().trim().min(2), email: z.email() })
  .safeParse({ name, email });
if (!valid.success) {
  console.error('Usage: npm run staff:first-admin -- "Full Name" email@college.edu.ng');
  process.exit(2);
}
const env = readServerEnv();
const database = env.DATABASE_URL
  ? await openDatabase({ url: env.DATABASE_URL })
  : await openDatabase({ dir: path.join(env.DATA_DIR, "pglite") });
try {
  const link = await createFirstAdmin(database.db, valid.data, new Date(), env.PUBLIC_ORIGIN);
  console.log(
    `Administrator ${valid.data.email.toLowerCase()}: choose a password within 72 hours at\n${link}\nThen sign in at ${new URL("/staff/login", env.PUBLIC_ORIGIN)} and set up an authenticator app.`,
  );
} catch (error) {
  console.error((error as Error).message);
  process.exitCode = 1;
} finally {
  await database.close();
}
