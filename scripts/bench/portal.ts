import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SessionCookie } from "./measure.ts";
import { freePortBlock, signalGroup } from "./local-ports.ts";

/** A portal the bench measures; `stop()` ends it if the bench started it. */
export interface RunningPortal {
  url: string;
  stop(): Promise<void>;
  /** Why the portal is gone if it stopped by itself (with its last output), else `null`. */
  crashReport(): string | null;
}

/** The demo student the seed creates outside production. */
export const DEMO_STUDENT = { username: "08030000001", password: "demo1234" };

const READY = /Portal ready on (http:\/\/\S+)/;
const KEPT_LINES = 200;

/** A portal already running elsewhere, e.g. from `--url`. */
export function existingPortal(url: string): RunningPortal {
  return { url, stop: async () => {}, crashReport: () => null };
}

/**
 * Starts `node scripts/start.ts` from `root` on free ports (PORT and the nine after it) with
 * an empty data directory so the demo seed runs, and resolves once it prints
 * "Portal ready on http://…".
 */
export async function startPortal(
  root: string,
  timeoutMs = 120_000,
  /** E.g. DATABASE_URL of a fresh PostgreSQL database; by default the embedded one. */
  extraEnv: NodeJS.ProcessEnv = {},
): Promise<RunningPortal & { pid: number }> {
  const dataDir = await mkdtemp(join(tmpdir(), "portal-bench-"));
  const port = await freePortBlock();
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), DATA_DIR: dataDir };
  // An empty DATABASE_URL means the embedded database, fresh in DATA_DIR.
  Object.assign(env, { DATABASE_URL: "", PUBLIC_ORIGIN: `http://localhost:${port}` }, extraEnv);
  // The demo seed runs only outside production.
  delete env.NODE_ENV;
  const child = spawn(process.execPath, ["scripts/start.ts"], {
    cwd: root,
    env,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output: string[] = [];
  let exited = false;
  let stopping = false;
  // "error" without "exit" when the process could not be started at all.
  const exit = new Promise<void>((resolve) => child.once("exit", resolve).once("error", resolve));
  exit.then(() => (exited = true));
  // Last resort if the bench dies without calling stop(): never leave a portal running.
  const killOnExit = () => exited || signalGroup(child.pid, "SIGKILL");
  process.once("exit", killOnExit);

  const stop = async (): Promise<void> => {
    stopping = true;
    if (!exited) {
      signalGroup(child.pid, "SIGTERM");
      const timer = setTimeout(() => signalGroup(child.pid, "SIGKILL"), 5000);
      await exit;
      clearTimeout(timer);
    }
    process.off("exit", killOnExit);
    await rm(dataDir, { recursive: true, force: true });
  };

  const ready = new Promise<string>((resolve, reject) => {
    const onLine = (line: string) => {
      output.push(line);
      if (output.length > KEPT_LINES) output.shift();
      const match = READY.exec(line);
      if (match) resolve(match[1]);
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
    exit.then(() => reject(new Error(`the portal stopped (exit code ${child.exitCode})`)));
    const late = new Error(`the portal was not ready after ${timeoutMs / 1000} s`);
    setTimeout(() => reject(late), timeoutMs).unref();
  });

  const crashReport = () =>
    exited && !stopping
      ? `The portal exited while being measured (exit code ${child.exitCode}, ` +
        `signal ${child.signalCode ?? "none"}). Its last output:\n` +
        output.slice(-40).join("\n")
      : null;
  try {
    return { url: await ready, stop, crashReport, pid: child.pid! };
  } catch (error) {
    await stop();
    const shown = output.length ? output.join("\n") : "(no output)";
    const what = `node scripts/start.ts in ${root}`;
    throw new Error(`Starting the portal (${what}) failed: ${(error as Error).message}.\n${shown}`);
  }
}

/**
 * Signs in through the proxy's form handler and returns the session cookie(s) it sets,
 * ready to add to a browser context.
 */
export async function signIn(
  baseUrl: string,
  credentials: { username: string; password: string } = DEMO_STUDENT,
): Promise<SessionCookie[]> {
  const url = new URL("/login", baseUrl);
  const response = await fetch(url, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: url.origin },
    body: new URLSearchParams(credentials),
  }).catch((error: Error) => {
    const cause = error.cause instanceof Error ? error.cause.message : error.message;
    throw new Error(`Could not reach ${url} to sign in: ${cause}`);
  });
  const cookies = response.headers.getSetCookie().flatMap(parseSetCookie);
  if (response.status < 300 || response.status >= 400 || cookies.length === 0) {
    throw new Error(
      `Signing in as ${credentials.username} at ${url} answered ${response.status} ` +
        `with ${cookies.length} cookie(s); expected a redirect that sets the session cookie.`,
    );
  }
  return cookies;
}

/** `name=value; Path=/; HttpOnly` → the name and value, or nothing for a cleared cookie. */
function parseSetCookie(header: string): SessionCookie[] {
  const pair = header.split(";")[0];
  const equals = pair.indexOf("=");
  const name = pair.slice(0, equals).trim();
  const value = pair.slice(equals + 1).trim();
  return equals > 0 && value ? [{ name, value }] : [];
}
