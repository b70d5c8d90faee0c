/**
 * Registration week: `npm run load` (see --help). Starts or targets a portal, makes the student
 * accounts, plays every student's visit, prints the table, checks the database, writes the table
 * to docs/measurements/ and exits 1 on any failed request or check.
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import { openDatabase, type DatabaseHandle, type DatabaseOptions } from "../server/db/client.ts";
import { seedDemoData } from "../server/db/seed.ts";
import { databasePhotoBackend } from "../server/uploads/database-photos.ts";
import { createPhotoStorage } from "../server/uploads/photo-storage.ts";
import { createStudentAccounts } from "./load/accounts.ts";
import { addCollegeSize, describeCollegeSize } from "./college/college-size.ts";
import { spreadStudents } from "./load/addresses.ts";
import { parseLoadArgs, USAGE, type LoadArgs } from "./load/args.ts";
import { checkDatabase, type CheckResult, type RemitaEvidence } from "./load/checks.ts";
import { playStudent, type JourneyOptions, type StudentAccount } from "./load/journey.ts";
import { playRemitaStudent, remitaWayFor } from "./load/remita.ts";
import {
  bursarReconciliation,
  createLoadBursar,
  FAULT_SHARES,
  lagosDay,
  NO_FAULTS,
  reconcileUntilSettled,
  remitaPaidRrrs,
  RemitaRun,
  setSandboxFaults,
  type LoadBursar,
} from "./load/remita-run.ts";
import { startPortal, type StartedPortal } from "./load/portal.ts";
import { measureBareNode } from "./bench/autocannon.ts";
import { assertPortsFree, freePortBlock } from "./bench/local-ports.ts";
import { largerMemory, programCpuMs, type PeakMemory } from "./bench/process-group.ts";
import { providerPaidReferences } from "./load/provider.ts";
import { formatReport, passed, type LoadReport } from "./load/report.ts";
import {
  createRunDatabase,
  databaseOnThisMachine,
  openTargetDatabase,
  serverVersion,
} from "./load/run-database.ts";
import { arrivalOffsets, withBurst } from "./load/schedule.ts";
import { lineCheck, studentsCsv, summariseLine } from "./load/line.ts";
import { simulate } from "./load/simulate.ts";
import {
  checkResultsDay,
  countScores,
  playResultsDay,
  prepareResultsDay,
  type ResultsExpected,
} from "./load/results-day.ts";
import { StepRecorder } from "./load/stats.ts";

const root = fileURLToPath(new URL("..", import.meta.url));
const log = (message: string) => process.stderr.write(`${message}\n`);
// The sandbox gives each webhook 5 s; the last payments' webhooks land (or give up) within it.
const WEBHOOK_GRACE_MS = 6_000;
// Replayed notifications land within this long (at think factor 1) of a payment's arrival.
const REPLAY_SPREAD_SECONDS = 30;
// The Remita sandbox is the portal's port + 7 (runtime/start/layout.ts).
const REMITA_SANDBOX_OFFSET = 7;
// Long enough for a steady figure, short enough not to matter in CI's smoke run.
const BASELINE_SECONDS = 5;

/** Undone in reverse order at the end, or on Ctrl-C. */
const cleanups: (() => Promise<void>)[] = [];
async function cleanUp() {
  while (cleanups.length > 0) {
    await cleanups.pop()!().catch((error: Error) => log(`Cleaning up failed: ${error.message}`));
  }
}

/** The database the run works on, and how the portal reaches it. */
type Setup = {
  origin: string;
  /** Opens the run's database again for the checks. */
  openForChecks: () => Promise<Pick<DatabaseHandle, "db" | "close">>;
  accounts: StudentAccount[];
  /** Results day: each student's published GPA, and the scores held before the first arrival. */
  resultsDay: { expected: ResultsExpected; scoresBefore: number } | null;
  databaseLabel: string;
  portalLabel: string;
  portal: StartedPortal | null;
  /** The bursar who reads the reconciliation at the end of a run with Remita. */
  bursar: LoadBursar | null;
};

/** Every student of the run: those arriving over its minutes and the burst. */
const everyone = (args: LoadArgs) => args.students + args.burst;

/** Made where the accounts are: only a run with Remita reads the bursary's reconciliation. */
const bursarFor = (db: Parameters<typeof createLoadBursar>[0], args: LoadArgs) =>
  args.gateways.includes("remita") ? createLoadBursar(db) : Promise.resolve(null);

async function prepareOwnPortal(args: LoadArgs): Promise<Setup> {
  if (!existsSync(path.join(root, "dist/server/entry.mjs"))) {
    throw new Error(
      'The pages are not built: run "npm run build" first ("npm run load" builds them itself).',
    );
  }
  const port = args.port ?? (await freePortBlock());
  if (args.port !== undefined) await assertPortsFree(port);
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "portal-load-"));
  cleanups.push(async () => {
    if (args.keep) log(`Kept the data folder ${dataDir}`);
    else await rm(dataDir, { recursive: true, force: true });
  });

  let databaseOptions: DatabaseOptions = { dir: path.join(dataDir, "pglite") };
  let databaseLabel = "PGlite (embedded, in a fresh temporary folder)";
  if (args.databaseUrl) {
    const runDatabase = await createRunDatabase(args.databaseUrl);
    cleanups.push(async () => {
      if (args.keep) log(`Kept the database ${runDatabase.name}`);
      else await runDatabase.drop();
    });
    databaseOptions = { url: runDatabase.url };
    databaseLabel = `${await serverVersion(runDatabase.url)} on ${new URL(args.databaseUrl).host} (database ${runDatabase.name}, made for the run)`;
  }

  // The portal's own first start would load the demo college; loading it here, then the accounts,
  // has every student exist before the first arrives, with one start of the portal. PGlite is one
  // process's, so the portal may only open it once this handle is closed.
  log(`Loading the demo college and making ${everyone(args)} student accounts…`);
  const database = await openDatabase(databaseOptions);
  let accounts: StudentAccount[];
  let resultsDay: Setup["resultsDay"];
  let bursar: LoadBursar | null;
  try {
    await seedDemoData(database.db, {
      photos: createPhotoStorage(databasePhotoBackend(database.db)),
      nodeEnv: "development",
    });
    if (args.collegeSize > 0) {
      const rows = await addCollegeSize(database.db, args.collegeSize, { progress: log });
      databaseLabel += `, holding ${describeCollegeSize(rows)} besides the demo college`;
    }
    accounts = await createStudentAccounts(database.db, everyone(args), log);
    resultsDay = await prepareScenario(database.db, args, accounts);
    bursar = await bursarFor(database.db, args);
    // The accounts too, so the portal's first queries are planned on the tables as they are.
    if (args.collegeSize > 0) await database.db.execute(sql`analyze`);
  } finally {
    await database.close();
  }

  log(`Starting the portal on port ${port}…`);
  const portal = await startPortal({
    root,
    port,
    dataDir,
    databaseUrl: "url" in databaseOptions ? databaseOptions.url : undefined,
    gateways: args.gateways,
    lineMaxPerSecond: args.lineMaxPerSecond,
  });
  cleanups.push(() => portal.stop());
  return {
    origin: portal.url,
    openForChecks: () => openDatabase(databaseOptions),
    accounts,
    resultsDay,
    databaseLabel,
    portalLabel: `started by the simulation as \`npm start\` runs it (\`node runtime/start.ts\`, NODE_ENV=development, PAYMENT_GATEWAYS=${args.gateways.join(",")}, ${args.gateways.map((name) => (name === "paystack" ? "Paystack sandbox" : "Remita sandbox")).join(" and ")})`,
    portal,
    bursar,
  };
}

/** What the scenario needs in the database before the first student arrives. */
async function prepareScenario(
  db: Parameters<typeof createStudentAccounts>[0],
  args: LoadArgs,
  accounts: StudentAccount[],
): Promise<Setup["resultsDay"]> {
  if (args.scenario !== "results-day") return null;
  const expected = await prepareResultsDay(db, accounts, log);
  return { expected, scoresBefore: await countScores(db) };
}

async function prepareTarget(args: LoadArgs): Promise<Setup> {
  const url = args.databaseUrl!;
  log(`Making ${everyone(args)} student accounts in the target's database (they stay there)…`);
  const database = await openTargetDatabase(url);
  let accounts: StudentAccount[];
  let resultsDay: Setup["resultsDay"];
  let bursar: LoadBursar | null;
  try {
    accounts = await createStudentAccounts(database.db, everyone(args), log);
    resultsDay = await prepareScenario(database.db, args, accounts);
    bursar = await bursarFor(database.db, args);
  } finally {
    await database.close();
  }
  return {
    origin: new URL(args.target!).origin,
    openForChecks: () => openTargetDatabase(url),
    accounts,
    resultsDay,
    databaseLabel: `${await serverVersion(args.databaseUrl!)} on ${new URL(args.databaseUrl!).host} (the target's own database)`,
    portalLabel: `already running at ${args.target}`,
    portal: null,
    bursar,
  };
}

/**
 * SIGKILLs one of the portal's worker processes once `afterMs` has passed, as a crash would, and
 * notes whether the primary replaced it. Answers a function that cancels it if not yet done.
 */
function scheduleWorkerKill(portal: StartedPortal, afterMs: number, notes: string[]) {
  const timer = setTimeout(() => {
    const workers = portal.workerPids();
    const victim = workers[0];
    if (victim === undefined) {
      notes.push("No portal worker process was found to kill.");
      return;
    }
    process.kill(victim, "SIGKILL");
    log(`Killed portal worker ${victim} (SIGKILL); ${workers.length - 1} left serving.`);
    const killedAt = performance.now();
    const watch = setInterval(() => {
      const now = portal.workerPids();
      const waited = ((performance.now() - killedAt) / 1000).toFixed(1);
      if (now.length >= workers.length && !now.includes(victim)) {
        clearInterval(watch);
        notes.push(
          `Portal worker process ${victim} of ${workers.length} was killed (SIGKILL) ${Math.round(afterMs / 1000)} s into the arrivals; the primary had started its replacement ${waited} s later.`,
        );
      } else if (performance.now() - killedAt > 60_000) {
        clearInterval(watch);
        notes.push(
          `Portal worker process ${victim} was killed (SIGKILL); no replacement after ${waited} s.`,
        );
      }
    }, 250);
    watch.unref();
  }, afterMs);
  return () => clearTimeout(timer);
}

/**
 * The end of a run with Remita: the last bank payments arrive and the notification storm ends;
 * faults off; the reconciler run until everything pending has been asked about since; then the
 * sandbox asked which of the run's RRRs it holds as paid, and the bursar's reconciliation read.
 */
async function settleRemita(
  run: RemitaRun,
  setup: Setup,
  args: LoadArgs,
  runStarted: Date,
  notes: string[],
  recorder: StepRecorder,
): Promise<RemitaEvidence> {
  const arrivalsLeft = run.lastArrival - Date.now();
  if (arrivalsLeft > 0) {
    log(`Waiting ${Math.ceil(arrivalsLeft / 1000)} s for the last bank payments to reach Remita…`);
    await sleep(arrivalsLeft + WEBHOOK_GRACE_MS);
  }
  await run.drained();
  if (!run.remitaOrigin) {
    return {
      paid: { paid: new Set() },
      reconciliation: { problem: "no student was given an RRR" },
    };
  }
  if (args.faults) {
    await setSandboxFaults(run.remitaOrigin, NO_FAULTS);
    const { sent } = run;
    notes.push(
      `Notifications sent to the portal besides the sandbox's own: ${sent.replays} replays of real ones (three each, at random moments within ${Math.round(REPLAY_SPREAD_SECONDS * Math.max(args.think, 0.05))} s of the payment's arrival), ` +
        `${sent.forgedUnpaid} forged for RRRs not paid yet, ${sent.forgedMadeUp} forged naming made-up RRRs; ` +
        `${sent.answeredOk} answered OK, ${sent.refused} otherwise, ${sent.lost} not delivered.`,
    );
  }
  log("Running the reconciler through the development hook until nothing pending is left unasked…");
  try {
    const settled = await reconcileUntilSettled(setup.origin, everyone(args) * 2 + 50);
    notes.push(
      `At the end${args.faults ? ", with faults off" : ""}: ${settled.passes} reconciler passes through POST /api/dev/reconcile-payments credited ${settled.credited} payments.`,
    );
  } catch (error) {
    // A target portal in production has no development hook: the checks then show what is left.
    notes.push(`The reconciler could not be run at the end: ${(error as Error).message}.`);
  }
  log(
    `Asking the Remita sandbox about ${run.issuedRrrs.size} RRRs, then reading the bursary's reconciliation…`,
  );
  const paid = await remitaPaidRrrs(run.remitaOrigin, run.issuedRrrs);
  const reconciliation = setup.bursar
    ? await bursarReconciliation(
        setup.origin,
        setup.bursar,
        { from: lagosDay(runStarted), to: lagosDay(new Date()) },
        recorder,
      )
    : { problem: "no bursar was made for the run" };
  return { paid, reconciliation };
}

function gitCommit(): string {
  try {
    const commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], {
      cwd: root,
      encoding: "utf8",
    }).trim();
    const dirty = execFileSync("git", ["status", "--porcelain", "--untracked-files=no"], {
      cwd: root,
      encoding: "utf8",
    }).trim();
    return dirty ? `${commit} with uncommitted changes` : commit;
  } catch {
    return "unknown (not a git checkout)";
  }
}

/** How the run was started, to repeat it; a database password is never written down. */
function commandLine(argv: readonly string[]): string {
  const fromEnv =
    process.env.DATABASE_URL && !argv.includes("--database-url") && !argv.includes("--target");
  const prefix = fromEnv ? `DATABASE_URL=${withoutPassword(process.env.DATABASE_URL!)} ` : "";
  return `${prefix}node scripts/load.ts ${argv.map(withoutPassword).join(" ")}`.trim();
}

function withoutPassword(text: string): string {
  if (!/^postgres(ql)?:\/\//.test(text)) return text;
  const url = new URL(text);
  if (url.password) url.password = "PASSWORD";
  return url.toString();
}

function machine(): string {
  const cpus = os.cpus();
  const memory = `${Math.round(os.totalmem() / 2 ** 30)} GiB`;
  return `${cpus.length} cores (${cpus[0]?.model.trim() ?? "unknown"}), ${memory}, ${os.platform()} ${os.release()}; Node ${process.version}`;
}

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  const args = parseLoadArgs(argv, process.env);
  if (args.help) {
    console.log(USAGE);
    return 0;
  }
  const spread = spreadStudents(everyone(args), args.perAddress);
  const setup = args.target ? await prepareTarget(args) : await prepareOwnPortal(args);
  const resultsDay = setup.resultsDay;
  const arrivals = withBurst(
    arrivalOffsets(args.students, args.minutes * 60_000, args.shape),
    args.burst,
    args.minutes * 60_000,
  );
  log(`Measuring a bare Node hello-world on this machine for ${BASELINE_SECONDS} s, the baseline…`);
  const bareNode = await measureBareNode(BASELINE_SECONDS);
  const portal = setup.portal;
  const recorder = new StepRecorder(
    args.oneByOne && portal ? () => portal.usage({ memory: false })?.cpuMs ?? null : undefined,
  );
  const loadBefore = os.loadavg();
  const cpuBefore = process.cpuUsage();
  const portalCpuMsBefore = portal?.usage({ memory: false })?.cpuMs ?? null;
  const databaseCpuMs = () =>
    args.databaseUrl && databaseOnThisMachine(args.databaseUrl) ? programCpuMs("postgres") : null;
  const databaseCpuMsBefore = databaseCpuMs();
  let peakMemory: PeakMemory | null = null;
  const memorySampler = setInterval(() => {
    const usage = portal?.usage();
    if (usage) peakMemory = largerMemory(peakMemory, usage);
  }, 2_000);
  const remitaRun = args.gateways.includes("remita")
    ? new RemitaRun({
        portalOrigin: setup.origin,
        faults: args.faults,
        spreadMs: REPLAY_SPREAD_SECONDS * 1000 * Math.max(args.think, 0.05),
      })
    : null;
  const faultLines: string[] = [];
  let stopFaults = () => {};
  if (args.faults && portal) {
    const remitaOrigin = `http://localhost:${Number(new URL(portal.url).port) + REMITA_SANDBOX_OFFSET}`;
    await setSandboxFaults(remitaOrigin, FAULT_SHARES);
    faultLines.push(
      `The Remita sandbox answered 503 to a sixth of its API calls and held a sixth past the portal's 10 s time-out, from the first arrival until every student had left.`,
    );
    // On PGlite the portal is one process owning the database: killing it would end the run.
    if (args.databaseUrl)
      stopFaults = scheduleWorkerKill(portal, (args.minutes * 60_000) / 2, faultLines);
    else faultLines.push("No portal process was killed: on PGlite the portal is one process.");
  }
  log(
    `${args.students} students arriving ${args.oneByOne ? "one by one" : `over ${args.minutes} min (${args.shape})`} at ${setup.origin} from ${spread.addresses.length} client addresses` +
      (args.gateways.length > 1
        ? `, taking ${args.gateways.join(" and ")} in turn`
        : `, paying through ${args.gateways[0]}`) +
      (args.faults ? ", under faults" : "") +
      (args.burst > 0 ? `, and ${args.burst} more all in the last second` : "") +
      "…",
  );
  const runStarted = new Date();
  const turnOf = new Map(setup.accounts.map((account, index) => [account.id, index]));
  const playRegistration = (account: StudentAccount, options: JourneyOptions) => {
    const turn = turnOf.get(account.id)!;
    const journey = { ...options, faults: args.faults };
    if (args.gateways[turn % args.gateways.length] === "paystack")
      return playStudent(account, journey);
    const way = remitaWayFor(Math.floor(turn / args.gateways.length));
    return playRemitaStudent(account, { ...journey, way, events: remitaRun ?? undefined });
  };

  const result = await simulate(setup.accounts, {
    origin: setup.origin,
    arrivals,
    addressOf: spread.addressOf,
    recorder,
    timeoutMs: args.timeoutSeconds * 1000,
    think: args.think,
    oneByOne: args.oneByOne,
    progress: log,
    play: resultsDay
      ? (account, options) => playResultsDay(account, { ...options, expected: resultsDay.expected })
      : playRegistration,
  }).finally(() => {
    clearInterval(memorySampler);
    stopFaults();
  });
  const cpu = process.cpuUsage(cpuBefore);
  const portalCpuMsAfter = portal?.usage({ memory: false })?.cpuMs ?? null;
  const databaseCpuMsAfter = databaseCpuMs();
  const machineLoad = {
    before: loadBefore,
    after: os.loadavg(),
    simulatorCpuSeconds: (cpu.user + cpu.system) / 1e6,
    portalCpuSeconds:
      portalCpuMsBefore === null || portalCpuMsAfter === null
        ? null
        : (portalCpuMsAfter - portalCpuMsBefore) / 1000,
    databaseCpuSeconds:
      databaseCpuMsBefore === null || databaseCpuMsAfter === null
        ? null
        : (databaseCpuMsAfter - databaseCpuMsBefore) / 1000,
  };

  if (!resultsDay) {
    log("Waiting for the last webhooks, then asking the Paystack sandbox what was paid…");
    await sleep(WEBHOOK_GRACE_MS);
  }
  const checkoutOrigin = result.outcomes.find((outcome) => outcome.checkoutOrigin)?.checkoutOrigin;
  // No student reached a checkout: nothing can have been paid.
  const provider = checkoutOrigin
    ? await providerPaidReferences(checkoutOrigin)
    : { paid: new Set<string>() };
  const remita = remitaRun
    ? await settleRemita(remitaRun, setup, args, runStarted, faultLines, recorder)
    : undefined;
  const crash = setup.portal?.crashReport() ?? null;
  if (setup.portal) {
    // PGlite is the portal's until it stops; the checks read the database after it.
    await setup.portal.stop();
  }

  let checks: CheckResult[];
  const database = await setup.openForChecks();
  try {
    checks = resultsDay
      ? await checkResultsDay(database.db, { accounts: setup.accounts, ...resultsDay })
      : await checkDatabase(database.db, {
          accounts: setup.accounts,
          outcomes: result.outcomes,
          providerPaid: provider,
          remita,
        });
  } finally {
    await database.close();
  }
  if (args.burst > 0) checks.push(lineCheck(recorder.studentRecords(), recorder.failures));

  const completed = result.outcomes.filter((outcome) => outcome.completed).length;
  const report: LoadReport = {
    title: resultsDay ? "Results day" : "Registration week",
    date: new Date().toISOString().slice(0, 10),
    command: commandLine(argv),
    portal: setup.portalLabel,
    database: setup.databaseLabel,
    machine: machine(),
    commit: gitCommit(),
    settings:
      `${args.gateways.join(" and ")}${args.gateways.length > 1 ? " in turn" : ""}${args.faults ? " under faults" : ""}, ` +
      `think times ×${args.think}, arrivals ${args.oneByOne ? "one by one, each once the one before had signed out" : args.shape}, ${spread.addresses.length} client address${spread.addresses.length === 1 ? "" : "es"} ` +
      `(at most ${args.perAddress} students each), request timeout ${args.timeoutSeconds} s` +
      (args.burst > 0
        ? `; ${args.burst} students more arrived all within the last second of the arrivals`
        : "") +
      (args.lineMaxPerSecond === undefined
        ? ""
        : `; the portal let in at most ${args.lineMaxPerSecond} students a second per serving process from its line (WAITING_LINE_MAX_PER_SECOND)`),
    students: {
      total: everyone(args),
      completed,
      stopped: everyone(args) - completed,
      minutes: args.oneByOne ? null : args.minutes,
    },
    requests: {
      total: recorder.requests,
      failed: recorder.failures,
      busy: recorder.busyAnswers,
      waiting: recorder.waitingPages,
      seconds: result.durationMs / 1000,
      peakPerSecond: result.peakRequestsPerSecond,
    },
    machineLoad,
    bareNodeRequestsPerSecond: bareNode.reqPerSec,
    portalPeakMemory: peakMemory,
    line: summariseLine(recorder.studentRecords()),
    steps: recorder.summaries(),
    errorReasons: recorder.errorReasons(),
    retryReasons: recorder.retryReasons(),
    faults: faultLines,
    checks,
    portalProblems: setup.portal?.problems() ?? [],
    crash,
  };
  const text = formatReport(report);
  console.log(`\n${text}`);
  if (args.reportPath !== null) {
    const file =
      args.reportPath === "default"
        ? path.join(
            root,
            "docs",
            "measurements",
            `${report.date}-load-${args.collegeSize > 0 ? `college-${args.collegeSize}-` : ""}${resultsDay ? "results-day-" : ""}${args.gateways.includes("remita") ? `${args.gateways.join("-")}-` : ""}${args.faults ? "faults-" : ""}${args.students}${args.burst > 0 ? `-burst-${args.burst}` : ""}${args.oneByOne ? "-one-by-one" : ""}.md`,
          )
        : path.resolve(args.reportPath);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, text);
    const rows = file.replace(/(\.md)?$/, "-students.csv");
    await writeFile(rows, studentsCsv(recorder.studentRecords()));
    log(
      `Written to ${path.relative(process.cwd(), file)}, one row per student in ${path.relative(process.cwd(), rows)}`,
    );
  }
  return passed(report) ? 0 : 1;
}

process.once("SIGINT", () => {
  log("Interrupted: stopping the portal and removing the run's database…");
  void cleanUp().then(() => process.exit(130));
});

let exitCode = 1;
try {
  exitCode = await main();
} catch (error) {
  log((error as Error).message);
} finally {
  await cleanUp();
}
process.exit(exitCode);
