import { parseArgs } from "node:util";
import { parseCollegeSize } from "../load/args.ts";

export type ExplainArgs = {
  /** A database already built (by --keep): explained as it is, nothing built. */
  databaseUrl?: string;
  /** The PostgreSQL server a fresh database is made on. */
  serverUrl: string;
  /** Students added to the demo college in the fresh database. */
  collegeSize: number;
  /** Keep the fresh database afterwards (its address is printed). */
  keep: boolean;
  /** Where the Markdown report goes; undefined: only printed. */
  out?: string;
  help: boolean;
};

export const DEFAULT_COLLEGE_SIZE = 20_000;
const LOCAL_SERVER = "postgres://postgres@127.0.0.1:5432/test";

export const EXPLAIN_USAGE = `Usage: node scripts/explain-hot-queries.ts [options]   (npm run explain:hot -- [options])

On PostgreSQL, makes a fresh database (on DATABASE_URL's server, default the local one), loads
the demo college and a college's students with their history (--college-size), then plays one
student's registration week through the real API in this process: sign in, dashboard, profile,
payment page, quote, pay at the Paystack sandbox (whose webhook credits it), verify, history,
registration page, register, slip, results, sign out; then the line at the door's statements.
The student is a college-size one at 300 level in the middle of the data.

Every distinct statement the API sends is run under EXPLAIN (ANALYZE, BUFFERS) just before it
runs, with its own parameters, in a transaction (or savepoint) rolled back; a prepared statement
also with its generic plan (plan_cache_mode = force_generic_plan). Prints, per statement, the
plan's nodes, any sequential scan and the rows of the table it reads, the time and the rows.
Exits with 1 when a statement scans a table of more than 1,000 rows from end to end, when a
statement could not be explained, or when a hot prepared statement no longer runs in the journey.

  --college-size N      students added to the demo college (default ${DEFAULT_COLLEGE_SIZE.toLocaleString("en")})
  --database-url URL    explain on this database as it is, already built (with --keep), instead
                        of building one; the journey signs in, pays and registers there
  --keep                keep the database built for the run, and print its address
  --out PATH            also write the report (Markdown) to PATH
  --help                show this text`;

export function parseExplainArgs(
  argv: readonly string[],
  env: NodeJS.ProcessEnv = {},
): ExplainArgs {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      "college-size": { type: "string" },
      "database-url": { type: "string" },
      keep: { type: "boolean", default: false },
      out: { type: "string" },
      help: { type: "boolean", default: false },
    },
  });
  const databaseUrl = values["database-url"];
  const serverUrl = env.DATABASE_URL || LOCAL_SERVER;
  for (const url of [databaseUrl, serverUrl])
    if (url !== undefined && !/^postgres(ql)?:\/\//.test(url))
      throw new Error(`explain:hot needs PostgreSQL: a postgres:// address, got "${url}"`);
  if (databaseUrl !== undefined && values["college-size"] !== undefined)
    throw new Error(
      "--college-size builds a database; --database-url names one already built: give one of them",
    );
  if (databaseUrl !== undefined && values.keep)
    throw new Error("--keep keeps the database a run builds; with --database-url none is built");
  return {
    databaseUrl,
    serverUrl,
    collegeSize:
      values["college-size"] === undefined
        ? DEFAULT_COLLEGE_SIZE
        : parseCollegeSize(values["college-size"]),
    keep: values.keep,
    out: values.out,
    help: values.help,
  };
}
