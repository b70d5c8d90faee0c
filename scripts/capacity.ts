/**
 * How many requests a second the portal answers on this machine, each figure printed beside a
 * bare Node `http` hello-world measured in the same run (issue 13's table). autocannon runs in
 * its own process, as a load generator on another machine would.
 *
 *   npm run bench:capacity                          # PGlite, or PostgreSQL when DATABASE_URL is set
 *   npm run bench:capacity -- --duration 20 --connections 20 --only api-read,dashboard
 */
import { execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import { cpus, totalmem } from "node:os";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import pg from "pg";
import { signIn, startPortal } from "./bench/portal.ts";
import { startFloorServer } from "./bench/floor.ts";
import { processGroupUsage } from "./bench/process-group.ts";

const root = fileURLToPath(new URL("..", import.meta.url));
const autocannonBin = fileURLToPath(new URL("../node_modules/autocannon/autocannon.js", import.meta.url));
const progress = (message: string) => process.stderr.write(`${message}\n`);

const { values: args } = parseArgs({
  options: {
    duration: { type: "string", default: "10" },
    connections: { type: "string", default: "20" },
    only: { type: "string" },
    database: { type: "string" },
    out: { type: "string" },
  },
});
const duration = Number(args.duration);
const connections = Number(args.connections);
const databaseChoice = args.database ?? (process.env.DATABASE_URL ? "postgres" : "pglite");
if (!["pglite", "postgres"].includes(databaseChoice)) throw new Error("--database is pglite or postgres");

type Scenario = {
  name: string;
  what: string;
  method?: "GET" | "POST";
  path: string;
  body?: string;
  signedIn: boolean;
  /** Text a good answer contains, checked once before the run so an error page is not measured. */
  expect: string;
};

const scenarios = (studentId: number): Scenario[] => [
  { name: "api-read", what: `GET /api/student/profile/${studentId}, signed in`, path: `/api/student/profile/${studentId}`, signedIn: true, expect: '"status":"success"' },
  { name: "dashboard", what: "dashboard `/`, signed in", path: "/", signedIn: true, expect: "Candidate Details" },
  { name: "payment", what: "`/payment`, signed in", path: "/payment", signedIn: true, expect: "<form" },
  { name: "course-reg", what: "`/course-reg`, signed in", path: "/course-reg", signedIn: true, expect: "<form" },
  { name: "history", what: "`/history/payments`, signed in", path: "/history/payments", signedIn: true, expect: "<table" },
  { name: "login-page", what: "`/login` page", path: "/login", signedIn: false, expect: "<form" },
  {
    name: "sign-in",
    what: "successful sign-ins (POST /api/student/uniben/login)",
    method: "POST",
    path: "/api/student/uniben/login",
    body: JSON.stringify({ username: "08030000001", password: "demo1234" }),
    signedIn: false,
    expect: '"status":"success"',
  },
];

type Result = { reqPerSec: number; p50: number; p99: number; ok: number; failed: number; peakRssMiB?: number; cpuMsPerRequest?: number };

/** One autocannon run in a child process; its JSON summary. */
function autocannon(url: string, scenario: Pick<Scenario, "method" | "body">, headers: Record<string, string>, seconds: number): Promise<Result> {
  const argv = [autocannonBin, "--json", "-c", String(connections), "-d", String(seconds)];
  if (scenario.method === "POST") argv.push("-m", "POST", "-b", scenario.body ?? "");
  for (const [name, value] of Object.entries(headers)) argv.push("-H", `${name}=${value}`);
  argv.push(url);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, argv, { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (chunk) => (out += chunk));
    child.stderr.on("data", (chunk) => (err += chunk));
    child.on("exit", (code) => {
      if (code !== 0) return reject(new Error(`autocannon failed (${code}): ${err}`));
      const summary = JSON.parse(out) as {
        requests: { average: number };
        latency: { p50: number; p99: number };
        "2xx": number;
        non2xx: number;
        errors: number;
        timeouts: number;
      };
      resolve({
        reqPerSec: summary.requests.average,
        p50: summary.latency.p50,
        p99: summary.latency.p99,
        ok: summary["2xx"],
        failed: summary.non2xx + summary.errors + summary.timeouts,
      });
    });
  });
}

async function groupUsage(groupId: number) {
  const usage = processGroupUsage(groupId);
  return { rssMiB: (usage?.residentBytes ?? 0) / 2 ** 20, cpuMs: usage?.cpuMs ?? 0 };
}

async function freshPostgresDatabase() {
  const adminUrl = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
  const name = `capacity_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

const database = databaseChoice === "postgres" ? await freshPostgresDatabase() : undefined;
const floor = await startFloorServer();
progress(`Starting the portal on ${databaseChoice}…`);
const portal = await startPortal(root, 180_000, database ? { DATABASE_URL: database.url } : {});
const rows: { scenario: Scenario | { name: string; what: string }; result: Result }[] = [];
try {
  const cookie = (await signIn(portal.url)).map(({ name, value }) => `${name}=${value}`).join("; ");
  const me = (await (await fetch(new URL("/api/student/me", portal.url), { headers: { cookie } })).json()) as { data: { id: number } };
  const wanted = args.only?.split(",");
  const chosen = scenarios(me.data.id).filter((scenario) => !wanted || wanted.includes(scenario.name));

  const bare = async () => {
    progress("bare Node hello-world…");
    rows.push({ scenario: { name: "bare", what: "bare Node `http` hello-world (baseline)" }, result: await autocannon(floor.url, {}, {}, duration) });
  };
  await bare();
  for (const scenario of chosen) {
    const url = new URL(scenario.path, portal.url).href;
    const headers: Record<string, string> = { origin: new URL(portal.url).origin };
    if (scenario.signedIn) headers.cookie = cookie;
    if (scenario.method === "POST") headers["content-type"] = "application/json";
    const probe = await fetch(url, { method: scenario.method ?? "GET", headers, body: scenario.body });
    const text = await probe.text();
    if (!probe.ok || !text.includes(scenario.expect)) {
      throw new Error(`${scenario.name}: ${url} answered ${probe.status} without "${scenario.expect}":\n${text.slice(0, 400)}`);
    }
    progress(`${scenario.name}: warming up, then ${duration} s…`);
    await autocannon(url, scenario, headers, 2);
    let peak = 0;
    const sampler = setInterval(() => void groupUsage(portal.pid).then(({ rssMiB }) => (peak = Math.max(peak, rssMiB))), 500);
    const before = await groupUsage(portal.pid);
    const result = await autocannon(url, scenario, headers, duration);
    const after = await groupUsage(portal.pid);
    clearInterval(sampler);
    const crash = portal.crashReport();
    if (crash) throw new Error(crash);
    const cpuMsPerRequest = (after.cpuMs - before.cpuMs) / Math.max(1, result.ok + result.failed);
    rows.push({ scenario, result: { ...result, peakRssMiB: peak, cpuMsPerRequest } });
  }
} finally {
  await portal.stop();
  await floor.close?.();
  await database?.drop();
}

const bareRate = rows[0]!.result.reqPerSec;
const commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: root }).toString().trim();
const command = `npm run bench:capacity -- ${process.argv.slice(2).join(" ")}`.trim();
const table = [
  "| what | req/s | p50 ms | p99 ms | 2xx | failed | % of bare Node | portal CPU ms per request | portal RSS peak |",
  "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
  ...rows.map(({ scenario, result }) =>
    `| ${scenario.what} | ${Math.round(result.reqPerSec).toLocaleString("en")} | ${result.p50} | ${result.p99} | ${result.ok} | ${result.failed} | ` +
      `${scenario.name === "bare" ? "100 %" : `${((100 * result.reqPerSec) / bareRate).toFixed(1)} %`} | ` +
      `${result.cpuMsPerRequest === undefined ? "" : result.cpuMsPerRequest.toFixed(2)} | ` +
      `${result.peakRssMiB ? `${Math.round(result.peakRssMiB)} MiB` : ""} |`,
  ),
].join("\n");
const report = [
  `# Capacity on ${databaseChoice === "postgres" ? "PostgreSQL" : "PGlite"} — ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC`,
  "",
  `Command: \`${command}\` (database: ${databaseChoice}); commit ${commit}; ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB;`,
  `autocannon in its own process, ${connections} connections, ${duration} s per row after a 2 s warm-up.`,
  "",
  table,
  "",
].join("\n");
console.log(report);
const out = args.out ?? fileURLToPath(new URL(`../docs/measurements/${new Date().toISOString().slice(0, 10)}-capacity-${databaseChoice}.md`, import.meta.url));
await mkdir(new URL("../docs/measurements/", import.meta.url), { recursive: true });
await writeFile(out, report);
progress(`Written to ${out}`);
