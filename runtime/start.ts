/**
 * Starts the whole portal: the college API on its database, the Astro page server, and the edge
 * proxy in front of both, wired together in each serving process by function calls. On
 * PostgreSQL it starts one such process per core (WEB_CONCURRENCY), sharing the ports through
 * node:cluster; on PGlite, which one process owns, it starts one. `npm start` builds the pages first.
 * Decision 112 says why, and what each choice bought.
 */
import cluster, { type Worker } from "node:cluster";
import { randomBytes } from "node:crypto";
import { availableParallelism } from "node:os";
import type { Logger } from "../server/http/logger.ts";
import {
  partLogger,
  readPortalLayout,
  SANDBOX_KEY_VARIABLE,
  servesRemitaSandbox,
} from "./start/layout.ts";

// The proxy, the page server and the API of every process must share one secret (decision 122).
// None configured: the primary makes one for this start, and the workers inherit it.
if (cluster.isPrimary && process.env.PROXY_SHARED_SECRET === undefined) {
  process.env.PROXY_SHARED_SECRET = randomBytes(32).toString("base64url");
}
// glibc gives each thread that allocates its own malloc arena, up to eight per core, and each keeps
// what it freed: two arenas held a serving process about 30 MiB smaller in registration week at
// the same speed (decision 112). Read when a process starts, so it reaches the workers; an
// operator's own setting wins.
if (cluster.isPrimary) process.env.MALLOC_ARENA_MAX ??= "2";
// A production demo's sandbox has a random key per start: the primary makes it, and the workers,
// which run the sandbox and the API and sign and check with it, inherit it.
if (cluster.isPrimary && !process.env.PAYSTACK_SECRET_KEY) {
  process.env[SANDBOX_KEY_VARIABLE] ??= `sk_test_${randomBytes(32).toString("hex")}`;
}

const layout = readPortalLayout();
const { serverEnv, proxyEnv } = layout;
const port = proxyEnv.PORT;
// PGlite lives inside one process: only PostgreSQL can be shared by several.
const processes = serverEnv.DATABASE_URL
  ? (serverEnv.WEB_CONCURRENCY ?? availableParallelism())
  : 1;

const log = (name: string) => partLogger(layout, name);

const role = cluster.isPrimary ? "primary" : process.env.PORTAL_ROLE;
if (role === "primary") await startPrimary();
else if (role === "prepare") await prepareDatabaseAndExit();
else await startWorker();

/**
 * Migrates and seeds once (in a short-lived worker), then serves through one worker per core on
 * PostgreSQL, or one on PGlite. The primary only watches: the heavy modules
 * (the API, the pages, the ORM) are loaded where they serve, so it stays small, and a worker that
 * dies is replaced.
 */
async function startPrimary() {
  const logger = log("portal");
  cluster.setupPrimary({ execArgv: withYoungGenerationLimit(process.execArgv) });
  await runToCompletion({ PORTAL_ROLE: "prepare" }, "preparing the database");
  const stopWorkers = await forkWorkers(logger);
  if (!serverEnv.PAYSTACK_SECRET_KEY)
    logger.warn("Paystack sandbox in use: no money moves", { checkout: layout.paystack.baseUrl });
  if (servesRemitaSandbox(layout))
    logger.warn("Remita sandbox in use: no money moves", {
      remita: layout.remita.baseUrl,
      bank: `${layout.remita.baseUrl}/simulate/bank/{rrr}`,
    });
  logger.info("services", {
    api: layout.apiUrl,
    pages: layout.pagesUrl,
    database: serverEnv.DATABASE_URL ? "postgres" : "pglite",
    processes,
  });
  if (layout.outboxDir && serverEnv.NODE_ENV !== "production")
    console.log(`Mail outbox (development): http://localhost:${port}/api/dev/outbox`);
  console.log(`Portal ready on http://localhost:${port}`);

  let stopping = false;
  async function stop(signal: string) {
    if (stopping) return;
    stopping = true;
    logger.info("stopping", { signal });
    await stopWorkers();
    process.exit(0);
  }
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));
}

/**
 * V8 sizes the young generation by the machine's memory, and a worker keeps what it grew to:
 * semi-spaces of 16 MiB served more requests a second here and used about a quarter less memory
 * than the default (decision 112). An operator's own setting wins.
 */
function withYoungGenerationLimit(execArgv: string[]) {
  const set = [...execArgv, ...(process.env.NODE_OPTIONS?.split(" ") ?? [])].some((arg) =>
    arg.startsWith("--max-semi-space-size"),
  );
  return set ? execArgv : [...execArgv, "--max-semi-space-size=16"];
}

async function prepareDatabaseAndExit() {
  const { prepareDatabase } = await import("./start/api-service.ts");
  await prepareDatabase(layout, log("portal"));
  process.exit(0);
}

/** A worker that does one job and exits; start-up fails if it fails. */
function runToCompletion(env: Record<string, string>, what: string) {
  return new Promise<void>((resolve, reject) => {
    cluster
      .fork(env)
      .once("exit", (code, signal) =>
        code === 0
          ? resolve()
          : reject(new Error(`${what} failed (code ${code}, signal ${signal})`)),
      );
  });
}

/**
 * One worker per process wanted, each serving every port (the cluster shares the listeners) and
 * taking jobs from the queue; a worker that dies is replaced.
 */
async function forkWorkers(logger: Logger) {
  let stopping = false;
  const fork = () =>
    new Promise<Worker>((resolve, reject) => {
      const worker = cluster.fork();
      worker.once("message", (message) => (message === "ready" ? resolve(worker) : undefined));
      worker.once("exit", (code, signal) => {
        if (stopping) return;
        reject(
          new Error(`a portal process stopped while starting (code ${code}, signal ${signal})`),
        );
        logger.error("portal process stopped; starting another", { code, signal });
        void fork();
      });
    });
  await Promise.all(Array.from({ length: processes }, () => fork()));
  return async () => {
    stopping = true;
    await Promise.all(
      Object.values(cluster.workers ?? {}).map(
        (worker) =>
          new Promise<void>((resolve) => {
            if (!worker || worker.isDead()) return resolve();
            worker.once("exit", () => resolve());
            worker.process.kill("SIGTERM");
          }),
      ),
    );
  };
}

async function startWorker() {
  const logger = log(`portal-${cluster.worker!.id}`);
  const { startPortalProcess } = await import("./start/portal-process.ts");
  const portal = await startPortalProcess(layout, { logger });
  logger.info("serving", { mail: portal.mailer.describe() });
  process.send!("ready");
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await portal.stop();
    process.exit(0);
  };
  // Ctrl-C reaches every process of the terminal's group; the primary also sends SIGTERM.
  process.on("SIGINT", () => void stop());
  process.on("SIGTERM", () => void stop());
}
