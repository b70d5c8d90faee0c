/**
 * Results day for a whole college (issue 32): `npm run bench:results` (see --help). On a fresh
 * PostgreSQL database it builds a college whose semester has just ended, then times what the
 * results chain does with it, through the same functions the API calls: each lecturer opens the
 * score sheet, saves every score and submits; each head of department reads the result with its
 * grade distribution and approves; the exams office computes every programme's GPA, CGPA,
 * carry-overs and standing and publishes. Beside it, in the same run, the floor: the same
 * score rows written by plain INSERTs with no checks, no transaction and no audit.
 */
import { execFileSync } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { count, eq, sql } from "drizzle-orm";
import { openDatabase, type Database } from "../server/db/client.ts";
import { courseOfferings, courseScores, resultPublications } from "../server/db/schema.ts";
import { SaveScoresRequest } from "../common/results/score-sheets.ts";
import { readScoreSheet, saveScores, submitResult } from "../server/results/score-sheet.ts";
import { decideResult, reviewedResult } from "../server/results/review.ts";
import { computedResults, publishResults } from "../server/results/publication.ts";
import { rowsOnlyJobs } from "../server/jobs/rows-only-jobs.ts";
import { createRunDatabase, serverVersion } from "./load/run-database.ts";
import { BENCH_SEMESTER, buildCollege, type OfferingToEnter } from "./results/college.ts";

const USAGE = `Usage: node scripts/results-bench.ts [options]   (npm run bench:results -- [options])

Builds a college on a fresh PostgreSQL database (DATABASE_URL, default the local server) and
times entering, approving and publishing one semester's results, beside plain INSERTs of the
same scores. Writes the table to docs/measurements/ unless --no-report.

  --students N        students (default 20000)
  --courses N         courses per student in the semester (default 10)
  --departments N     departments, one programme each (default 20)
  --at-once N         lecturers (and heads) working at the same moment (default 4)
  --report PATH       where to write the table (default docs/measurements/<date>-results-<N>.md)
  --no-report         write no file
  --help              show this text`;

const root = fileURLToPath(new URL("..", import.meta.url));
const log = (message: string) => process.stderr.write(`${message}\n`);

const { values } = parseArgs({
  options: {
    students: { type: "string", default: "20000" },
    courses: { type: "string", default: "10" },
    departments: { type: "string", default: "20" },
    "at-once": { type: "string", default: "4" },
    report: { type: "string" },
    "no-report": { type: "boolean", default: false },
    help: { type: "boolean", default: false },
  },
});
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const whole = (name: string, value: string) => {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1)
    throw new Error(`--${name} must be a whole number ≥ 1, got "${value}"`);
  return number;
};
const shape = {
  students: whole("students", values.students),
  coursesPerSemester: whole("courses", values.courses),
  departments: whole("departments", values.departments),
};
const atOnce = whole("at-once", values["at-once"]);
const serverUrl = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";

/** Runs `work` over `items` with at most `limit` at a time. */
async function inParallel<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}

async function timed(label: string, work: () => Promise<void>) {
  log(`${label}…`);
  const started = performance.now();
  await work();
  const seconds = (performance.now() - started) / 1000;
  log(`${label}: ${seconds.toFixed(1)} s`);
  return seconds;
}

/** A plausible mark sheet, the same in every run: mostly passes, a few fails, one in a hundred absent. */
function scoresFor(offering: OfferingToEnter) {
  return offering.studentIds.map((studentId) => {
    const seed = (studentId * 7919 + offering.offeringId * 104_729) % 1000;
    if (seed < 10) return { student_id: studentId, ca: seed, exam: null, special: "ABS" };
    return {
      student_id: studentId,
      ca: 10 + (seed % 31),
      exam: 15 + ((seed * 13) % 46),
      special: null,
    };
  });
}

/** The floor: the same rows, written one course at a time by a bare INSERT into a bare table. */
async function plainInserts(db: Database, offerings: readonly OfferingToEnter[]) {
  await db.execute(
    sql`create table bench_floor (offering_id integer, student_id integer, ca integer, exam integer, special text, primary key (offering_id, student_id))`,
  );
  const seconds = await timed("Floor: the same scores by plain INSERTs", () =>
    inParallel(offerings, atOnce, async (offering) => {
      const rows = scoresFor(offering);
      await db.execute(
        sql`insert into bench_floor values ${sql.join(
          rows.map(
            (row) =>
              sql`(${offering.offeringId}, ${row.student_id}, ${row.ca}, ${row.exam}, ${row.special})`,
          ),
          sql`, `,
        )}`,
      );
    }),
  );
  await db.execute(sql`drop table bench_floor`);
  return seconds;
}

function gitCommit(): string {
  try {
    return execFileSync("git", ["rev-parse", "--short", "HEAD"], {
      cwd: root,
      encoding: "utf8",
    }).trim();
  } catch {
    return "unknown";
  }
}

const runDatabase = await createRunDatabase(serverUrl);
let exitCode = 1;
try {
  const version = await serverVersion(runDatabase.url);
  const handle = await openDatabase({ url: runDatabase.url, poolSize: atOnce + 2 });
  try {
    const { db } = handle;
    // Other work on the machine slows every row alike; the report says how busy it was.
    const loadBefore = os.loadavg()[0]!;
    const setupStarted = performance.now();
    const college = await buildCollege(db, shape, log);
    // A college's database grows over a semester and PostgreSQL keeps its statistics as it does;
    // written in one go, the tables would be planned as if empty until autovacuum came round.
    await db.execute(sql`analyze`);
    const setupSeconds = (performance.now() - setupStarted) / 1000;
    const now = () => new Date();
    const scores = college.offerings.reduce((sum, offering) => sum + offering.studentIds.length, 0);

    const floor = await plainInserts(db, college.offerings);
    const enter = await timed(
      `Lecturers enter and submit ${scores} scores in ${college.offerings.length} courses`,
      () =>
        inParallel(college.offerings, atOnce, async (offering) => {
          await readScoreSheet(db, offering.offeringId, (status) => status === "open");
          const request = SaveScoresRequest.parse({ scores: scoresFor(offering) });
          await saveScores(db, offering.lecturerId, offering.offeringId, request, now());
          await submitResult(db, offering.lecturerId, offering.offeringId, now());
        }),
    );
    const approve = await timed("Heads of department read each result and approve it", () =>
      inParallel(college.offerings, atOnce, async (offering) => {
        await reviewedResult(db, offering.headId, offering.offeringId);
        await decideResult(db, offering.headId, offering.offeringId, { approve: true }, now());
      }),
    );
    let computedStudents = 0;
    let withGpa = 0;
    const publish = await timed(
      `The exams office computes and publishes ${college.programmeIds.length} programmes`,
      () =>
        inParallel(college.programmeIds, atOnce, async (programmeId) => {
          const choice = { programme_id: programmeId, ...BENCH_SEMESTER };
          const computed = await computedResults(db, choice);
          computedStudents += computed.students.length;
          withGpa += computed.students.filter((student) => student.gpa !== null).length;
          await publishResults(
            { db, jobs: rowsOnlyJobs },
            college.examsOfficerId,
            { ...choice, board_meeting_on: "2025-03-14", minute_reference: "AB/2025/07" },
            now(),
          );
        }),
    );

    // What the run left must be the whole semester, or its times mean nothing.
    const [saved] = await db.select({ n: count() }).from(courseScores);
    const [approved] = await db
      .select({ n: count() })
      .from(courseOfferings)
      .where(eq(courseOfferings.status, "approved"));
    const [published] = await db.select({ n: count() }).from(resultPublications);
    const problems = [
      saved!.n !== scores && `${saved!.n} scores saved of ${scores}`,
      approved!.n !== college.offerings.length &&
        `${approved!.n} results approved of ${college.offerings.length}`,
      published!.n !== college.programmeIds.length &&
        `${published!.n} programmes published of ${college.programmeIds.length}`,
      computedStudents !== shape.students &&
        `${computedStudents} students computed of ${shape.students}`,
      withGpa !== shape.students && `${withGpa} students with a GPA of ${shape.students}`,
    ].filter((problem): problem is string => Boolean(problem));

    const total = enter + approve + publish;
    const cpus = os.cpus();
    const report = [
      `# Results day for ${shape.students} students: ${new Date().toISOString().slice(0, 10)}`,
      "",
      `- Command: \`${["node scripts/results-bench.ts", ...process.argv.slice(2)].join(" ")}\``,
      `- Commit: ${gitCommit()}`,
      `- Machine: ${cpus.length} cores (${cpus[0]?.model.trim() ?? "unknown"}), ${Math.round(os.totalmem() / 2 ** 30)} GiB; Node ${process.version}; ${version} on this machine; load average ${loadBefore.toFixed(1)} before the run, ${os.loadavg()[0]!.toFixed(1)} after`,
      `- College: ${shape.students} students in ${shape.departments} programmes × 3 levels, ${shape.coursesPerSemester} courses each in the semester: ${college.offerings.length} courses, ${scores} scores. Built in ${setupSeconds.toFixed(1)} s (not measured: it stands in for a semester of registering).`,
      `- ${atOnce} lecturers (then heads, then exams officers' computations) at a time, through the functions the API calls, with their checks, transactions and audit rows.`,
      "",
      "| Step | Seconds | × floor |",
      "| --- | ---: | ---: |",
      `| Floor: the same ${scores} scores by plain INSERTs, one course at a time | ${floor.toFixed(1)} | 1.0 |`,
      `| Lecturers open each sheet, save every score, submit | ${enter.toFixed(1)} | ${(enter / floor).toFixed(1)} |`,
      `| Heads read each result with its distribution and history, approve | ${approve.toFixed(1)} | ${(approve / floor).toFixed(1)} |`,
      `| Exams office computes GPA, CGPA, carry-overs and standing, publishes | ${publish.toFixed(1)} | ${(publish / floor).toFixed(1)} |`,
      `| **Entering, approving and publishing the semester** | **${total.toFixed(1)}** | ${(total / floor).toFixed(1)} |`,
      "",
      problems.length
        ? `**Checks failed:** ${problems.join("; ")}.`
        : `Checks: ${scores} scores saved, ${college.offerings.length} results approved, ${college.programmeIds.length} programmes published, every one of ${shape.students} students computed with a GPA.`,
      "",
      `Target (issue 32): under 60 s. ${total < 60 ? "Met" : "Not met"} in this run.`,
      "",
    ].join("\n");
    console.log(`\n${report}`);
    if (!values["no-report"]) {
      const file = values.report
        ? path.resolve(values.report)
        : path.join(
            root,
            "docs",
            "measurements",
            `${new Date().toISOString().slice(0, 10)}-results-${shape.students}.md`,
          );
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, report);
      log(`Written to ${path.relative(process.cwd(), file)}`);
    }
    exitCode = problems.length ? 1 : 0;
  } finally {
    await handle.close();
  }
} catch (error) {
  log((error as Error).stack ?? String(error));
} finally {
  await runDatabase.drop();
}
process.exit(exitCode);
