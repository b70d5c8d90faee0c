import { parseArgs } from "node:util";
import { ARRIVAL_SHAPES, type ArrivalShape } from "./schedule.ts";

/** What `node scripts/load.ts` was asked to do. */
/** What the students come to do. */
export const SCENARIOS = ["registration", "results-day"] as const;
export type Scenario = (typeof SCENARIOS)[number];

/** The gateways students may pay through; with both, students take them in turn. */
export const LOAD_GATEWAYS = ["paystack", "remita"] as const;
export type LoadGateway = (typeof LOAD_GATEWAYS)[number];

export type LoadArgs = {
  scenario: Scenario;
  /** In the order students take them: the first student the first, the second the next, … */
  gateways: LoadGateway[];
  /**
   * Remita under faults: the sandbox fails a third of its API calls, every notification is sent
   * three times out of order among forged ones, and one portal worker process is killed mid-run.
   */
  faults: boolean;
  students: number;
  minutes: number;
  /** Multiplies every think time: 1 is a person reading, 0.1 a hurried smoke test. */
  think: number;
  shape: ArrivalShape;
  perAddress: number;
  timeoutSeconds: number;
  /** Each student arrives once the one before has signed out, and the portal's CPU is read at every step. */
  oneByOne: boolean;
  /**
   * Students arriving besides `students`, all within the last second of the arrivals (the
   * deadline's peak), to form a line at the door; the run then checks that it formed and drained.
   */
  burst: number;
  /** WAITING_LINE_MAX_PER_SECOND of the portal the simulation starts: admissions per second per serving process. */
  lineMaxPerSecond?: number;
  /** A portal already running; the simulation then needs `databaseUrl` to create accounts and check. */
  target?: string;
  /** PostgreSQL: a fresh database is made from it for the run (or, with --target, the portal's own). */
  databaseUrl?: string;
  /** The port of the portal the simulation starts (it also takes the eight after it). */
  port?: number;
  /** Where the Markdown table goes; null: nowhere (CI's smoke run). */
  reportPath: string | null | "default";
  /** Keep the run's database (and data directory) for a look afterwards. */
  keep: boolean;
  /**
   * Students with their history (scripts/college/college-size.ts) added to the demo college before
   * the run's accounts are made, so the run meets a college's database; 0: the demo's alone.
   */
  collegeSize: number;
  help: boolean;
};

export const USAGE = `Usage: node scripts/load.ts [options]   (npm run load -- [options])

Registration week: N students, each with an account made beforehand, sign in, pay the school
fee at the Paystack sandbox's checkout (or through a Remita RRR, --gateway), register courses
within the 80-unit cap, print the slip and sign out, with think times between pages, arriving
faster and faster towards the end.
Prints count, errors and p50/p95/p99 per step, checks the database at the end, and exits
with 1 on any failed request or check.

Without --target it starts the portal itself ("node runtime/start.ts"; run "npm run build"
first) on a fresh database: PostgreSQL when DATABASE_URL (or --database-url) is set, a new
database made for the run and dropped after it; else PGlite in a temporary folder.

  --scenario NAME       registration (default), or results-day: each student's first semester is
                        published before the portal starts (registered, scored, approved, school
                        fee paid); students sign in, open their results, find the GPA the exams
                        office computed for them and sign out
  --gateway LIST        paystack (default), remita, or paystack,remita (students take them in
                        turn). A Remita student gets an RRR on the Payment page; half pay it
                        online on the Remita sandbox's page and come back through /remita/verify,
                        half pay it at a bank (the sandbox's bank, arriving a little later), some
                        of them pressing "I have paid — check now" as it arrives; everyone then
                        registers courses (the portal does not make registration wait for the
                        fee). At the end every RRR the sandbox holds as paid must be credited
                        exactly once, nothing else credited, and the bursary's reconciliation
                        must show no unexplained row for the run's days
  --faults              with remita, without --target: the Remita sandbox answers 503 to a sixth
                        of its API calls and holds a sixth past the portal's time-out; every
                        notification is sent again three times, out of order, among forged ones
                        for unpaid and made-up RRRs; on PostgreSQL one portal worker process is
                        killed (SIGKILL) mid-run (on PGlite the portal is one process: none is).
                        Students press a refused button again, as people do (counted apart from
                        errors). At the end faults are switched off and the reconciler run until
                        nothing Remita holds as paid is pending
  --students N          virtual students (default 10000)
  --minutes M           arrivals spread over M minutes (default 10)
  --think F             think-time factor: 1 = a person reading, 0.1 = ten times faster (default 1)
  --shape deadline|flat arrival rate climbing towards the end, or even (default deadline)
  --one-by-one          each student arrives once the one before has signed out (--minutes and
                        --shape are not used), and the table gives the portal's CPU per request
                        of each step: where a student's cost goes. Work a step leaves running
                        (the sandbox's webhook) counts in the step during which it runs
  --burst N             N more students arrive all within the last second of the arrivals, when
                        they come fastest, to form a line at the door: the run then fails unless
                        at least one student waited in line and everyone who did was let in and
                        went through to the end, with no failed request
  --line-max-per-second R
                        without --target: the portal's line at the door lets in at most R
                        students per second per serving process (WAITING_LINE_MAX_PER_SECOND)
  --per-address N       students per loopback client address (default 50, at most 300)
  --timeout S           seconds before a request counts as failed (default 30)
  --port P              port of the portal it starts; it uses P..P+8 (default: a free block)
  --target URL          a portal already running on this machine (needs --database-url)
  --database-url URL    PostgreSQL (default: DATABASE_URL)
  --report PATH         where to write the Markdown table
                        (default docs/measurements/<date>-load-[<gateways>-][faults-]<students>.md,
                        the gateways named only with remita)
  --no-report           write no file (the table is still printed)
  --keep                keep the run's database and data folder
  --college-size N      without --target: before the run's accounts are made, add N students to
                        the demo college, spread over its programmes and levels 100–300, each
                        with their history since they entered (school-fee payments with their
                        events, some abandoned or failed, a few refunded; course registrations,
                        approvals and published results; hostel invoices; the last day's
                        sign-ins), then ANALYZE.
                        The demo student and the run's own accounts are still the ones who sign
                        in (default: off, the demo college alone)
  --help                show this text`;

const positive = (name: string, value: string, whole = true) => {
  const number = Number(value);
  const ok = whole
    ? Number.isInteger(number) && number >= 1
    : Number.isFinite(number) && number > 0;
  if (!ok)
    throw new Error(
      `--${name} must be a ${whole ? "whole number ≥ 1" : "number > 0"}, got "${value}"`,
    );
  return number;
};

/** Parses the command line; throws with a readable message on a bad value. */
export function parseLoadArgs(argv: readonly string[], env: NodeJS.ProcessEnv = {}): LoadArgs {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      scenario: { type: "string", default: "registration" },
      gateway: { type: "string", default: "paystack" },
      faults: { type: "boolean", default: false },
      students: { type: "string", default: "10000" },
      minutes: { type: "string", default: "10" },
      think: { type: "string", default: "1" },
      shape: { type: "string", default: "deadline" },
      "one-by-one": { type: "boolean", default: false },
      "per-address": { type: "string", default: "50" },
      burst: { type: "string" },
      "line-max-per-second": { type: "string" },
      timeout: { type: "string", default: "30" },
      port: { type: "string" },
      target: { type: "string" },
      "database-url": { type: "string" },
      report: { type: "string" },
      "no-report": { type: "boolean", default: false },
      keep: { type: "boolean", default: false },
      "college-size": { type: "string" },
      help: { type: "boolean", default: false },
    },
  });
  const scenario = values.scenario as Scenario;
  if (!SCENARIOS.includes(scenario)) {
    throw new Error(`--scenario must be one of ${SCENARIOS.join(", ")}, got "${values.scenario}"`);
  }
  const shape = values.shape as ArrivalShape;
  if (!ARRIVAL_SHAPES.includes(shape)) {
    throw new Error(`--shape must be one of ${ARRIVAL_SHAPES.join(", ")}, got "${values.shape}"`);
  }
  const gateways = values.gateway.split(",").map((name) => name.trim()) as LoadGateway[];
  if (
    gateways.some((name) => !LOAD_GATEWAYS.includes(name)) ||
    new Set(gateways).size !== gateways.length
  ) {
    throw new Error(
      `--gateway must be paystack, remita or paystack,remita, got "${values.gateway}"`,
    );
  }
  if (scenario === "results-day" && values.gateway !== "paystack")
    throw new Error("--gateway is for registration week: on results day nobody pays");
  const think = Number(values.think);
  if (!Number.isFinite(think) || think < 0)
    throw new Error(`--think must be a number ≥ 0, got "${values.think}"`);
  const port = values.port === undefined ? undefined : positive("port", values.port);
  if (port !== undefined && port + 8 > 65535)
    throw new Error(`--port must leave room for 8 ports after it`);
  const databaseUrl = values["database-url"] || env.DATABASE_URL || undefined;
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new Error(`--database-url must be a postgres:// address, got "${databaseUrl}"`);
  }
  const target = values.target;
  if (target !== undefined) {
    let host: string;
    try {
      host = new URL(target).hostname;
    } catch {
      throw new Error(`--target must look like http://localhost:4321, got "${target}"`);
    }
    // Students are told apart by binding their sockets to loopback addresses, which reach only this machine.
    if (host !== "localhost" && !/^127\.\d+\.\d+\.\d+$/.test(host)) {
      throw new Error(
        `--target must be a portal on this machine (localhost or 127.x.x.x), got "${target}"`,
      );
    }
    if (!databaseUrl) {
      throw new Error(
        "--target needs --database-url (or DATABASE_URL): the accounts are made, and the results checked, in its database",
      );
    }
    if (port !== undefined)
      throw new Error("--port is for the portal the simulation starts; drop it with --target");
    if (values["one-by-one"])
      throw new Error(
        "--one-by-one reads the CPU of the portal the simulation starts; drop it with --target",
      );
  }
  if (values.faults) {
    if (!gateways.includes("remita"))
      throw new Error(
        "--faults are the Remita sandbox's: add --gateway remita (or paystack,remita)",
      );
    if (target !== undefined)
      throw new Error("--faults kill a worker of the portal the simulation starts: drop --target");
    if (values["one-by-one"])
      throw new Error("--faults and --one-by-one: the CPU per step would be the faults'; drop one");
  }
  const burst = values.burst === undefined ? 0 : positive("burst", values.burst);
  if (burst > 0 && values["one-by-one"])
    throw new Error("--burst and --one-by-one: one student at a time never forms a line; drop one");
  const lineMaxPerSecond =
    values["line-max-per-second"] === undefined
      ? undefined
      : positive("line-max-per-second", values["line-max-per-second"], false);
  if (lineMaxPerSecond !== undefined && target !== undefined)
    throw new Error(
      "--line-max-per-second is for the portal the simulation starts; drop it with --target",
    );
  if (values.report !== undefined && values["no-report"])
    throw new Error("--report and --no-report contradict each other");
  const collegeSize = parseCollegeSize(values["college-size"]);
  if (collegeSize > 0 && target !== undefined)
    throw new Error(
      "--college-size fills the database the simulation makes; drop it with --target (build the target's with npm run explain:hot -- --keep)",
    );
  return {
    scenario,
    gateways,
    faults: values.faults,
    students: positive("students", values.students),
    minutes: positive("minutes", values.minutes, false),
    think,
    shape,
    perAddress: positive("per-address", values["per-address"]),
    timeoutSeconds: positive("timeout", values.timeout, false),
    oneByOne: values["one-by-one"],
    burst,
    lineMaxPerSecond,
    target,
    databaseUrl,
    port,
    reportPath: values["no-report"] ? null : (values.report ?? "default"),
    keep: values.keep,
    collegeSize,
    help: values.help,
  };
}

/** The most students --college-size adds: its phone numbers have seven digits after the prefix. */
export const MOST_COLLEGE_SIZE = 1_000_000;

/** `--college-size N`: 0 when not given; a whole number from 1 to a million otherwise. */
export function parseCollegeSize(value: string | undefined): number {
  if (value === undefined) return 0;
  const size = positive("college-size", value);
  if (size > MOST_COLLEGE_SIZE)
    throw new Error(
      `--college-size is at most ${MOST_COLLEGE_SIZE.toLocaleString("en")}, got "${value}"`,
    );
  return size;
}
