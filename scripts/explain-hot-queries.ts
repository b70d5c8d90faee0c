/**
 * Every statement of a student's registration week, explained on a college's database:
 * `npm run explain:hot` (see --help). Exits 1 when one reads a big table whole.
 */
import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type pg from "pg";
import { sql } from "drizzle-orm";
import { openDatabase } from "../server/db/client.ts";
import { seedDemoData } from "../server/db/seed.ts";
import { databasePhotoBackend } from "../server/uploads/database-photos.ts";
import { createPhotoStorage } from "../server/uploads/photo-storage.ts";
import { addCollegeSize, describeCollegeSize } from "./college/college-size.ts";
import { EXPLAIN_USAGE, parseExplainArgs } from "./explain/args.ts";
import { explainEveryStatement } from "./explain/explaining-pool.ts";
import { middleStudent, playJourney } from "./explain/journey.ts";
import { BIG_TABLE_ROWS } from "./explain/plan-summary.ts";
import {
  formatStatementTable,
  formatStatementTexts,
  problems,
  summariseStatements,
} from "./explain/report.ts";
import { createRunDatabase, serverVersion } from "./load/run-database.ts";

const root = fileURLToPath(new URL("..", import.meta.url));
const log = (message: string) => process.stderr.write(`${message}\n`);

/**
 * Each table's rows as the planner knows them (ANALYZE), counted where it has not looked yet; a
 * sequence (the line's tickets) is read as one row, which it is.
 */
async function tableRows(db: Awaited<ReturnType<typeof openDatabase>>["db"]) {
  const { rows } = await db.execute<{ name: string; rows: number }>(sql`
    select c.relname as name, case when c.relkind = 'S' then 1 else c.reltuples end::float8 as rows
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where c.relkind in ('r', 'p', 'S') and n.nspname = 'public'`);
  const counted = new Map<string, number>();
  for (const row of rows) {
    const known = Number(row.rows);
    counted.set(
      row.name,
      known >= 0
        ? known
        : Number(
            (
              await db.execute<{ n: number }>(
                sql`select count(*)::float8 as n from ${sql.identifier(row.name)}`,
              )
            ).rows[0]!.n,
          ),
    );
  }
  return counted;
}

async function main(): Promise<number> {
  const args = parseExplainArgs(process.argv.slice(2), process.env);
  if (args.help) {
    console.log(EXPLAIN_USAGE);
    return 0;
  }
  const outboxDir = await mkdtemp(path.join(os.tmpdir(), "explain-hot-outbox-"));
  const built = args.databaseUrl ? null : await createRunDatabase(args.serverUrl);
  const url = args.databaseUrl ?? built!.url;
  let contents = "the database given with --database-url, as it was";
  try {
    if (built) {
      log(`Building ${built.name}: the demo college and ${args.collegeSize} students…`);
      const started = performance.now();
      const setup = await openDatabase({ url });
      try {
        await seedDemoData(setup.db, {
          photos: createPhotoStorage(databasePhotoBackend(setup.db)),
          nodeEnv: "development",
        });
        const rows = await addCollegeSize(setup.db, args.collegeSize, { progress: log });
        contents = `the demo college and ${describeCollegeSize(rows)}, built in ${Math.round((performance.now() - started) / 1000)} s and ANALYZEd`;
      } finally {
        await setup.close();
      }
    }
    // Two handles on it: one whose every statement is explained (the API's), and one that is
    // not (choosing the student, the Paystack sandbox's own tables, the table sizes).
    const plain = await openDatabase({ url, migrate: false, poolSize: 2 });
    const explained = await openDatabase({ url, migrate: false });
    try {
      const student = await middleStudent(plain.db);
      const sizes = await tableRows(plain.db);
      let step = "start";
      const { statements } = explainEveryStatement(explained.db.$client as pg.Pool, () => step);
      log(
        `Playing the journey of student ${student.id} (${student.phone}, ${student.level} level)…`,
      );
      await playJourney(explained, plain.db, student, {
        outboxDir,
        onStep: (name) => {
          step = name;
        },
      });
      const rows = summariseStatements(statements.values(), sizes);
      const found = problems(rows);
      const big = [...sizes.entries()]
        .filter(([, n]) => n > BIG_TABLE_ROWS)
        .sort((a, b) => b[1] - a[1])
        .map(([name, n]) => `${name} ${Math.round(n).toLocaleString("en")}`);
      const commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: root })
        .toString()
        .trim();
      const report = [
        `# A student's hot queries, explained — ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC`,
        "",
        `Command: \`npm run explain:hot -- ${process.argv.slice(2).join(" ")}\`; commit ${commit}; ` +
          `${await serverVersion(url)}; ${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB.`,
        `Database: ${contents}.`,
        `Tables of more than ${BIG_TABLE_ROWS.toLocaleString("en")} rows: ${big.join(", ")}.`,
        `Student ${student.id} (a college-size student at ${student.level} level, nearest the middle of their ids, not yet paid or registered in ${student.session}).`,
        "Each statement was explained the first time it ran, just before it ran, with its own parameters: " +
          "`EXPLAIN (ANALYZE, BUFFERS)` in a transaction or savepoint rolled back. A prepared one was also prepared afresh and run five times, " +
          "then explained on its sixth run (after five runs: the plan PostgreSQL settles on, its own custom plans or the generic plan) " +
          "and under `plan_cache_mode = force_generic_plan` (generic plan). " +
          "Times are PostgreSQL's execution time (ms: of that first run, when the pages read from disk are the cold ones).",
        "",
        formatStatementTable(rows),
        "",
        found.length === 0
          ? `No statement reads a table of more than ${BIG_TABLE_ROWS.toLocaleString("en")} rows whole, in its first plan or in the one it runs after five runs.`
          : ["**Problems:**", "", ...found.map((line) => `- ${line}`)].join("\n"),
        "",
        "## The statements",
        "",
        formatStatementTexts(rows),
        "",
      ].join("\n");
      console.log(report);
      if (args.out) {
        await mkdir(path.dirname(path.resolve(args.out)), { recursive: true });
        await writeFile(args.out, report);
        log(`Written to ${args.out}`);
      }
      return found.length === 0 ? 0 : 1;
    } finally {
      await explained.close();
      await plain.close();
    }
  } finally {
    await rm(outboxDir, { recursive: true, force: true });
    if (built && args.keep) log(`Kept the database: ${built.url}`);
    else await built?.drop();
  }
}

let exitCode = 1;
try {
  exitCode = await main();
} catch (error) {
  log((error as Error).stack ?? String(error));
}
process.exit(exitCode);
