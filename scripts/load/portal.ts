import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { processGroupUsage } from "../bench/process-group.ts";
import { signalGroup } from "../bench/local-ports.ts";

/** A portal the simulation started: `stop()` ends it the way Ctrl-C does. */
export type StartedPortal = {
  url: string;
  stop(): Promise<void>;
  /** Why the portal is gone if it stopped by itself (with its last output), else null. */
  crashReport(): string | null;
  /** Memory and CPU time so far of the portal's processes (workers included); null off Linux. */
  usage(options?: Parameters<typeof processGroupUsage>[1]): ReturnType<typeof processGroupUsage>;
  /** What the portal warned of or failed at while running, by kind, most frequent first. */
  problems(): [string, number][];
  /** The process ids of the portal's worker processes (the primary's children); [] off Linux. */
  workerPids(): number[];
};

const READY = /Portal ready on (http:\/\/\S+)/;
const KEPT_LINES = 200;

/**
 * Starts `node runtime/start.ts` from `root` as `npm start` does (after its build), on `port`
 * and the eight after it, on the given data folder and database, and resolves once it prints
 * "Portal ready on http://…". Outside production, so the Paystack sandbox stands in.
 */
export async function startPortal(options: {
  root: string;
  port: number;
  dataDir: string;
  databaseUrl?: string;
  /** PAYMENT_GATEWAYS: what students may pay through (default Paystack alone). */
  gateways?: readonly string[];
  /** WAITING_LINE_MAX_PER_SECOND: the most students per second each serving process lets in from the line. */
  lineMaxPerSecond?: number;
  /** False: no line at the door (WAITING_LINE=off), for measuring what the portal itself takes. */
  waitingLine?: boolean;
  timeoutMs?: number;
}): Promise<StartedPortal> {
  const { root, port, dataDir } = options;
  const timeoutMs = options.timeoutMs ?? 120_000;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    DATA_DIR: dataDir,
    // An empty DATABASE_URL means the embedded PGlite in DATA_DIR.
    DATABASE_URL: options.databaseUrl ?? "",
    PUBLIC_ORIGIN: `http://localhost:${port}`,
    NODE_ENV: "development",
    // Remita, when offered, is the local sandbox on PORT+7 under Remita's public demo merchant.
    PAYMENT_GATEWAYS: (options.gateways ?? ["paystack"]).join(","),
  };
  if (options.lineMaxPerSecond !== undefined)
    env.WAITING_LINE_MAX_PER_SECOND = String(options.lineMaxPerSecond);
  if (options.waitingLine === false) env.WAITING_LINE = "off";
  for (const inner of [
    "API_PORT",
    "PAGES_PORT",
    "PAYSTACK_SANDBOX_PORT",
    "API_URL",
    "PAGES_URL",
    "PAYSTACK_SECRET_KEY",
    "PAYSTACK_BASE_URL",
    "SMTP_URL",
    "REMITA_API_KEY",
    "REMITA_BASE_URL",
    "REMITA_MERCHANT_ID",
    "REMITA_SERVICE_TYPE_ID",
    "REMITA_SANDBOX_PORT",
  ]) {
    delete env[inner];
  }
  const child = spawn(process.execPath, ["runtime/start.ts"], {
    cwd: root,
    env,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output: string[] = [];
  const problems = new Map<string, number>();
  let exited = false;
  let stopping = false;
  const exit = new Promise<void>((resolve) =>
    child.once("exit", () => resolve()).once("error", () => resolve()),
  );
  void exit.then(() => (exited = true));
  // Last resort if the simulation dies without calling stop(): never leave a portal running.
  const killOnExit = () => exited || signalGroup(child.pid, "SIGKILL");
  process.once("exit", killOnExit);

  const stop = async () => {
    stopping = true;
    if (!exited) {
      signalGroup(child.pid, "SIGTERM");
      const timer = setTimeout(() => signalGroup(child.pid, "SIGKILL"), 15_000);
      await exit;
      clearTimeout(timer);
    }
    process.off("exit", killOnExit);
  };

  const ready = new Promise<string>((resolve, reject) => {
    const onLine = (line: string) => {
      output.push(line);
      if (output.length > KEPT_LINES) output.shift();
      const problem = problemIn(line);
      if (problem) problems.set(problem, (problems.get(problem) ?? 0) + 1);
      const match = READY.exec(line);
      if (match) resolve(match[1]!);
    };
    for (const stream of [child.stdout, child.stderr]) {
      let partial = "";
      stream.setEncoding("utf8").on("data", (chunk: string) => {
        const lines = (partial + chunk).split("\n");
        partial = lines.pop() ?? "";
        lines.forEach(onLine);
      });
    }
    child.once("error", reject);
    void exit.then(() => reject(new Error(`the portal stopped (exit code ${child.exitCode})`)));
    setTimeout(
      () => reject(new Error(`the portal was not ready after ${timeoutMs / 1000} s`)),
      timeoutMs,
    ).unref();
  });

  const crashReport = () =>
    exited && !stopping
      ? `The portal exited during the run (exit code ${child.exitCode}, signal ${child.signalCode ?? "none"}). Its last output:\n` +
        output.slice(-40).join("\n")
      : null;
  try {
    return {
      url: await ready,
      stop,
      crashReport,
      // The portal is started as the leader of its own process group: its workers are in it too.
      usage: (options) => (child.pid === undefined ? null : processGroupUsage(child.pid, options)),
      problems: () => [...problems].sort((a, b) => b[1] - a[1]),
      workerPids: () => (child.pid === undefined ? [] : childrenOf(child.pid)),
    };
  } catch (error) {
    await stop();
    const shown = output.length ? output.join("\n") : "(no output)";
    throw new Error(
      `Starting the portal (node runtime/start.ts in ${root}) failed: ${(error as Error).message}.\n${shown}`,
    );
  }
}

/** The processes whose parent is `pid`, read from /proc; [] off Linux. */
export function childrenOf(pid: number): number[] {
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return [];
  }
  const children: number[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      // After the command name in parentheses: state, then the parent's id.
      const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (parent === pid) children.push(Number(entry));
    } catch {
      // Ended while being read.
    }
  }
  return children;
}

// A word with a digit in it (a reference, an address, a count) differs from line to line.
const NUMBERED = /[\w:/.-]*\d[\w:/.-]*/g;

/**
 * The kind of trouble a portal log line reports, if any: a structured warning or error by its
 * message (and error), or an unstructured line naming an error (a stack's first line), with its
 * words with digits blanked so one kind counts as one.
 */
export function problemIn(line: string): string | null {
  if (line.startsWith("{")) {
    try {
      const entry = JSON.parse(line) as { level?: string; message?: string; error?: unknown };
      if (entry.level !== "warn" && entry.level !== "error") return null;
      const error = entry.error === undefined ? "" : ` (${String(entry.error).slice(0, 120)})`;
      return `${entry.level}: ${entry.message ?? ""}${error}`.replace(NUMBERED, "#");
    } catch {
      // Not one of the portal's structured lines: judged as text below.
    }
  }
  if (!/error/i.test(line) || /^\s+at /.test(line)) return null;
  return line.trim().replace(NUMBERED, "#").slice(0, 160);
}
