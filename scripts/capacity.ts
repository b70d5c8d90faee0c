/**
 * How many requests a second the portal answers on this machine, each figure printed beside a
 * bare Node `http` hello-world measured in the same run (issue 13's table). autocannon runs in
 * its own process, as a load generator on another machine would.
 *
 *   npm run bench:capacity                          # PGlite, or PostgreSQL when DATABASE_URL is set
 *   npm run bench:capacity -- --duration 20 --connections 20 --only api-read,dashboard
 *   npm run bench:capacity -- --college-size 20000  # on a college's database (see --help)
 */
import { execFileSync } from "node:child_process";
import { rmSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { cpus, tmpdir, totalmem } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { openDatabase, type DatabaseOptions } from "../server/db/client.ts";
import { seedDemoData } from "../server/db/seed.ts";
import { databasePhotoBackend } from "../server/uploads/database-photos.ts";
import { createPhotoStorage } from "../server/uploads/photo-storage.ts";
import { sql } from "drizzle-orm";
import { measureBareNode, runAutocannon, type AutocannonResult } from "./bench/autocannon.ts";
import { CAPACITY_USAGE, parseCapacityArgs } from "./bench/capacity-args.ts";
import { addCollegeSize, describeCollegeSize } from "./college/college-size.ts";
import { freePortBlock } from "./bench/local-ports.ts";
import {
  measurePasswordCheckCeiling,
  type PasswordCheckCeiling,
} from "./bench/password-check-ceiling.ts";
import { largerMemory, programCpuMs, type PeakMemory } from "./bench/process-group.ts";
import { signIn } from "./bench/portal.ts";
import { createStudentAccounts } from "./load/accounts.ts";
import type { StudentAccount } from "./load/journey.ts";
import { startPortal } from "./load/portal.ts";
import { createRunDatabase, databaseOnThisMachine } from "./load/run-database.ts";

const root = fileURLToPath(new URL("..", import.meta.url));
const progress = (message: string) => process.stderr.write(`${message}\n`);

const args = parseCapacityArgs(process.argv.slice(2), process.env);
if (args.help) {
  console.log(CAPACITY_USAGE);
  process.exit(0);
}
const { duration, connections, collegeSize } = args;
const databaseChoice = args.database;

type Scenario = {
  name: string;
  what: string;
  method?: "GET" | "POST";
  path: string;
  /** Sent in turn, one per request; the first is also the probe's. */
  bodies?: string[];
  signedIn: boolean;
  /** Text a good answer contains, checked once before the run so an error page is not measured. */
  expect: string;
};

const scenarios = (studentId: number, accounts: StudentAccount[]): Scenario[] => [
  {
    name: "api-read",
    what: `GET /api/student/profile/${studentId}, signed in`,
    path: `/api/student/profile/${studentId}`,
    signedIn: true,
    expect: '"status":"success"',
  },
  {
    name: "dashboard",
    what: "dashboard `/`, signed in",
    path: "/",
    signedIn: true,
    expect: "Candidate Details",
  },
  {
    // The demo student has a published semester (server/results/seed.ts): the page computes it.
    name: "results",
    what: "`/results`, signed in, one published semester",
    path: "/results",
    signedIn: true,
    expect: 'data-testid="cgpa"',
  },
  {
    name: "payment",
    what: "`/payment`, signed in",
    path: "/payment",
    signedIn: true,
    expect: "<form",
  },
  {
    name: "course-reg",
    what: "`/course-reg`, signed in",
    path: "/course-reg",
    signedIn: true,
    expect: "<form",
  },
  {
    name: "history",
    what: "`/history/payments`, signed in",
    path: "/history/payments",
    signedIn: true,
    expect: "<table",
  },
  { name: "login-page", what: "`/login` page", path: "/login", signedIn: false, expect: "<form" },
  {
    name: "sign-in",
    what: "successful sign-ins (POST /api/student/uniben/login), each time another student",
    method: "POST",
    path: "/api/student/uniben/login",
    bodies: accounts.map((account) =>
      JSON.stringify({ username: account.phone, password: account.password }),
    ),
    signedIn: false,
    expect: '"status":"success"',
  },
];

type Result = AutocannonResult & {
  peakMemory?: PeakMemory | null;
  cpuMsPerRequest?: number;
  databaseCpuMsPerRequest?: number | null;
};

function autocannon(
  url: string,
  scenario: Pick<Scenario, "method" | "bodies">,
  headers: Record<string, string>,
  seconds: number,
): Promise<Result> {
  return runAutocannon({
    url,
    connections,
    seconds,
    method: scenario.method,
    headers,
    bodies: scenario.bodies,
  });
}

const portalCpuMs = () => portal.usage({ memory: false })?.cpuMs ?? 0;
// PostgreSQL's own CPU shows where a page's cost moved out of the portal into the database. It
// is read only when the database is on this machine, and PGlite's is already the portal's.
const databaseCpuMs = () =>
  runDatabase && databaseOnThisMachine(runDatabase.url) ? programCpuMs("postgres") : null;
const mib = (bytes: number | null | undefined) =>
  bytes ? `${Math.round(bytes / 2 ** 20)} MiB` : "";

// Sign-ins need accounts of their own: one student signing in twenty times at once would meet
// the sign-in limits, which stay on. They are made as the load simulation makes them, before
// the portal starts (PGlite belongs to one process at a time).
const SIGN_IN_ACCOUNTS = 3_000;
const workDir = await mkdtemp(path.join(tmpdir(), "portal-capacity-"));
// Removed once the portal has stopped (below); this covers a run that fails before it starts.
process.once("exit", () => rmSync(workDir, { recursive: true, force: true }));
const dataDir = path.join(workDir, "data");
const runDatabase =
  databaseChoice === "postgres"
    ? await createRunDatabase(process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test")
    : undefined;
const databaseOptions: DatabaseOptions = runDatabase
  ? { url: runDatabase.url }
  : { dir: path.join(dataDir, "pglite") };
progress(`Loading the demo college and ${SIGN_IN_ACCOUNTS} accounts on ${databaseChoice}…`);
const setup = await openDatabase(databaseOptions);
let collegeNote = "";
const accounts = await (async () => {
  try {
    await seedDemoData(setup.db, {
      photos: createPhotoStorage(databasePhotoBackend(setup.db)),
      nodeEnv: "development",
    });
    if (collegeSize > 0) {
      const rows = await addCollegeSize(setup.db, collegeSize, { progress });
      collegeNote = `The database held ${describeCollegeSize(rows)} besides the demo college and the sign-in accounts, ANALYZEd before the portal started; the signed-in rows are the demo student's.`;
    }
    const made = await createStudentAccounts(setup.db, SIGN_IN_ACCOUNTS);
    if (collegeSize > 0) await setup.db.execute(sql`analyze`);
    return made;
  } finally {
    await setup.close();
  }
})();
progress("Starting the portal…");
const portal = await startPortal({
  root,
  port: await freePortBlock(),
  dataDir,
  databaseUrl: runDatabase?.url,
  // Every request here comes from a few clients hammering without a pause: with the line at the
  // door most would be waiting pages (decision 193). This measures the portal behind the door.
  waitingLine: false,
  timeoutMs: 180_000,
});
const rows: { scenario: Scenario | { name: string; what: string }; result: Result }[] = [];
let passwordCheckCeiling: PasswordCheckCeiling | undefined;
try {
  const cookie = (await signIn(portal.url)).map(({ name, value }) => `${name}=${value}`).join("; ");
  const me = (await (
    await fetch(new URL("/api/student/me", portal.url), { headers: { cookie } })
  ).json()) as { data: { id: number } };
  const wanted = args.only;
  const chosen = scenarios(me.data.id, accounts).filter(
    (scenario) => !wanted || wanted.includes(scenario.name),
  );

  const bare = async () => {
    progress("bare Node hello-world…");
    rows.push({
      scenario: { name: "bare", what: "bare Node `http` hello-world (baseline)" },
      result: await measureBareNode(duration, connections),
    });
  };
  await bare();
  if (chosen.some((scenario) => scenario.name === "sign-in")) {
    progress("password checks at the portal's cost…");
    passwordCheckCeiling = await measurePasswordCheckCeiling();
  }
  for (const scenario of chosen) {
    const url = new URL(scenario.path, portal.url).href;
    const headers: Record<string, string> = { origin: new URL(portal.url).origin };
    if (scenario.signedIn) headers.cookie = cookie;
    if (scenario.method === "POST") headers["content-type"] = "application/json";
    const probe = await fetch(url, {
      method: scenario.method ?? "GET",
      headers,
      body: scenario.bodies?.[0],
    });
    const text = await probe.text();
    if (!probe.ok || !text.includes(scenario.expect)) {
      throw new Error(
        `${scenario.name}: ${url} answered ${probe.status} without "${scenario.expect}":\n${text.slice(0, 400)}`,
      );
    }
    progress(`${scenario.name}: warming up, then ${duration} s…`);
    await autocannon(url, scenario, headers, 2);
    let peakMemory: PeakMemory | null = null;
    const sampler = setInterval(() => {
      const usage = portal.usage();
      if (usage) peakMemory = largerMemory(peakMemory, usage);
    }, 500);
    const cpuMsBefore = portalCpuMs();
    const databaseCpuMsBefore = databaseCpuMs();
    const result = await autocannon(url, scenario, headers, duration);
    const cpuMsAfter = portalCpuMs();
    const databaseCpuMsAfter = databaseCpuMs();
    clearInterval(sampler);
    const crash = portal.crashReport();
    if (crash) throw new Error(crash);
    const requests = Math.max(1, result.ok + result.failed);
    const cpuMsPerRequest = (cpuMsAfter - cpuMsBefore) / requests;
    const databaseCpuMsPerRequest =
      databaseCpuMsBefore === null || databaseCpuMsAfter === null
        ? null
        : (databaseCpuMsAfter - databaseCpuMsBefore) / requests;
    rows.push({
      scenario,
      result: { ...result, peakMemory, cpuMsPerRequest, databaseCpuMsPerRequest },
    });
  }
} finally {
  await portal.stop();
  await runDatabase?.drop();
  await rm(workDir, { recursive: true, force: true });
}

const bareRate = rows[0]!.result.reqPerSec;
const commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: root })
  .toString()
  .trim();
const command = `npm run bench:capacity -- ${process.argv.slice(2).join(" ")}`.trim();
const table = [
  "| what | req/s | p50 ms | p99 ms | 2xx | failed | % of bare Node | portal CPU ms per request | PostgreSQL CPU ms per request | portal RSS peak | the same, shared pages once |",
  "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
  ...rows.map(
    ({ scenario, result }) =>
      `| ${scenario.what} | ${Math.round(result.reqPerSec).toLocaleString("en")} | ${result.p50} | ${result.p99} | ${result.ok} | ${result.failed} | ` +
      `${scenario.name === "bare" ? "100 %" : `${((100 * result.reqPerSec) / bareRate).toFixed(1)} %`} | ` +
      `${result.cpuMsPerRequest === undefined ? "" : result.cpuMsPerRequest.toFixed(2)} | ` +
      `${result.databaseCpuMsPerRequest == null ? "" : result.databaseCpuMsPerRequest.toFixed(2)} | ` +
      `${mib(result.peakMemory?.residentBytes)} | ${mib(result.peakMemory?.residentSharedOnceBytes)} |`,
  ),
].join("\n");
const signIns = rows.find(({ scenario }) => scenario.name === "sign-in")?.result;
const ceilingNote =
  passwordCheckCeiling && signIns
    ? [
        `Sign-ins' baseline: one argon2id check at the portal's cost took ${passwordCheckCeiling.cpuMsPerCheck.toFixed(1)} ms of CPU ` +
          `(${passwordCheckCeiling.checks} checks, ${passwordCheckCeiling.atOnce} at once on threads of their own as the serving processes run them, with the portal idle), so ${cpus().length} cores doing nothing else ` +
          `could check at most ${Math.round(passwordCheckCeiling.checksPerSecond)} passwords a second; ` +
          `the portal's ${Math.round(signIns.reqPerSec)} sign-ins a second are ${((100 * signIns.reqPerSec) / passwordCheckCeiling.checksPerSecond).toFixed(0)} % of that.`,
        "",
      ]
    : [];
const report = [
  `# Capacity on ${databaseChoice === "postgres" ? "PostgreSQL" : "PGlite"} — ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC`,
  "",
  `Command: \`${command}\` (database: ${databaseChoice}); commit ${commit}; ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB;`,
  `autocannon in its own process, ${connections} connections, ${duration} s per row after a 2 s warm-up.`,
  "Memory is the portal's processes' resident sets added up, then the same with the pages they share (Node's own code) counted once.",
  ...(collegeNote ? [collegeNote] : []),
  "",
  table,
  "",
  ...ceilingNote,
].join("\n");
console.log(report);
const out =
  args.out ??
  fileURLToPath(
    new URL(
      `../docs/measurements/${new Date().toISOString().slice(0, 10)}-capacity-${databaseChoice}${collegeSize > 0 ? `-college-${collegeSize}` : ""}.md`,
      import.meta.url,
    ),
  );
await mkdir(new URL("../docs/measurements/", import.meta.url), { recursive: true });
await writeFile(out, report);
progress(`Written to ${out}`);
