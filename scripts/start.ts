/**
 * Starts the whole portal: the college API on its database, the Astro page server, and the edge
 * proxy in front of both, wired together in each serving process by function calls. On
 * PostgreSQL it starts one such process per core (WEB_CONCURRENCY), sharing the ports through
 * node:cluster; on PGlite, which one process owns, it starts one. `npm start` builds the pages first.
 * Decision 112 says why, and what each choice bought.
 */
import cluster, { type Worker } from "node:cluster";
import { randomBytes } from "node:crypto";
import type { Server } from "node:http";
import { availableParallelism } from "node:os";
import path from "node:path";
import { DEVELOPMENT_SLIP_SIGNING_KEY, readServerEnv, type ServerEnv } from "../server/env.ts";
import { readProxyEnv, type ProxyEnv } from "../proxy/env.ts";
import { createLogger, type Logger } from "../server/http/logger.ts";
import { logLevelOf } from "../src/lib/log/log-level.ts";
import { choosePaystackSecretKey } from "../server/paystack/secret-key.ts";
import type { PortalLayout } from "./start/portal-process.ts";
import { closeServer } from "./start/close-server.ts";

// The proxy, the page server and the API of every process must share one secret (decision 122).
// None configured: the primary makes one for this start, and the workers inherit it.
if (cluster.isPrimary && process.env.PROXY_SHARED_SECRET === undefined) {
  process.env.PROXY_SHARED_SECRET = randomBytes(32).toString("base64url");
}

let serverEnv: ServerEnv, proxyEnv: ProxyEnv;
try {
  serverEnv = readServerEnv();
  proxyEnv = readProxyEnv();
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}
const port = proxyEnv.PORT;
const apiPort = serverEnv.API_PORT ?? port + 1;
const pagesPort = serverEnv.PAGES_PORT ?? port + 2;
const sandboxPort = serverEnv.PAYSTACK_SANDBOX_PORT ?? port + 8;
const paystackSecretKey = choosePaystackSecretKey({ nodeEnv: serverEnv.NODE_ENV, configuredKey: serverEnv.PAYSTACK_SECRET_KEY });
const layout: PortalLayout = {
  serverEnv,
  proxyEnv,
  apiPort,
  pagesPort,
  apiUrl: proxyEnv.API_URL ?? `http://127.0.0.1:${apiPort}`,
  pagesUrl: proxyEnv.PAGES_URL ?? `http://127.0.0.1:${pagesPort}`,
  // Without a Paystack key the local sandbox stands in, speaking the same HTTP API.
  paystack: {
    baseUrl: serverEnv.PAYSTACK_SECRET_KEY ? serverEnv.PAYSTACK_BASE_URL : `http://localhost:${sandboxPort}`,
    secretKey: paystackSecretKey,
  },
  outboxDir: serverEnv.SMTP_URL ? undefined : path.resolve(serverEnv.DATA_DIR, "outbox"),
  slipSigningKey: serverEnv.SLIP_SIGNING_SECRET ?? DEVELOPMENT_SLIP_SIGNING_KEY,
};
// PGlite lives inside one process: only PostgreSQL can be shared by several.
const processes = serverEnv.DATABASE_URL ? (serverEnv.WEB_CONCURRENCY ?? availableParallelism()) : 1;

const log = (name: string) => createLogger({ name, level: logLevelOf(serverEnv) });

const role = cluster.isPrimary ? "primary" : process.env.PORTAL_ROLE;
if (role === "primary") await startPrimary();
else if (role === "prepare") await prepareDatabaseAndExit();
else await startWorker();

/**
 * Migrates and seeds once (in a short-lived worker), runs the sandbox, then serves through one
 * worker per core on PostgreSQL, or one on PGlite. The primary only watches: the heavy modules
 * (the API, the pages, the ORM) are loaded where they serve, so it stays small, and a worker that
 * dies is replaced.
 */
async function startPrimary() {
  const logger = log("portal");
  cluster.setupPrimary({ execArgv: withYoungGenerationLimit(process.execArgv) });
  await runToCompletion({ PORTAL_ROLE: "prepare" }, "preparing the database");
  const sandbox = await startSandbox(logger);
  const stopWorkers = await forkWorkers(logger);
  logger.info("services", {
    api: layout.apiUrl,
    pages: layout.pagesUrl,
    database: serverEnv.DATABASE_URL ? "postgres" : "pglite",
    processes,
  });
  const stopServing = async () => {
    await stopWorkers();
    if (sandbox) await closeServer(sandbox);
  };
  if (layout.outboxDir && serverEnv.NODE_ENV !== "production") console.log(`Mail outbox (development): http://localhost:${port}/api/dev/outbox`);
  console.log(`Portal ready on http://localhost:${port}`);

  let stopping = false;
  async function stop(signal: string) {
    if (stopping) return;
    stopping = true;
    logger.info("stopping", { signal });
    await stopServing();
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
  const set = [...execArgv, ...(process.env.NODE_OPTIONS?.split(" ") ?? [])].some((arg) => arg.startsWith("--max-semi-space-size"));
  return set ? execArgv : [...execArgv, "--max-semi-space-size=16"];
}

/** Applies pending migrations and, outside production, loads the demo data into an empty database. */
async function prepareDatabase(logger: Logger) {
  const { openDatabase } = await import("../server/db/client.ts");
  const database = serverEnv.DATABASE_URL
    ? await openDatabase({ url: serverEnv.DATABASE_URL, poolSize: 2, logger })
    : await openDatabase({ dir: path.join(serverEnv.DATA_DIR, "pglite") });
  if (serverEnv.NODE_ENV !== "production") {
    const { seedDemoData } = await import("../server/db/seed.ts");
    const { createFileStorage } = await import("../server/uploads/file-storage.ts");
    const photos = createFileStorage(path.join(serverEnv.DATA_DIR, "uploads", "photos"));
    if (await seedDemoData(database.db, { photos, nodeEnv: serverEnv.NODE_ENV })) {
      logger.info("demo data loaded", { students: ["08030000001", "08030000002", "08030000003 (record locked)"] });
    }
  }
  return database;
}

async function prepareDatabaseAndExit() {
  const database = await prepareDatabase(log("portal"));
  await database.close();
  process.exit(0);
}

/** Without a Paystack key the local sandbox stands in; it keeps its transactions in memory, so one per portal. */
async function startSandbox(logger: Logger): Promise<Server | undefined> {
  if (serverEnv.PAYSTACK_SECRET_KEY) return undefined;
  const { serve } = await import("@hono/node-server");
  const { createPaystackSandbox } = await import("../server/paystack/sandbox.ts");
  const app = createPaystackSandbox({
    secretKey: paystackSecretKey,
    publicUrl: layout.paystack.baseUrl,
    // At the public origin: the proxy refuses POSTs addressed to any other host name.
    webhookUrl: new URL("/api/paystack/webhook", serverEnv.PUBLIC_ORIGIN).toString(),
    // Paystack settles refunds later; the sandbox does so after a second, then sends refund.processed.
    settleRefundsAfterMs: 1_000,
  });
  logger.warn("Paystack sandbox in use: no money moves", { checkout: layout.paystack.baseUrl });
  return serve({ fetch: app.fetch, port: sandboxPort }) as Server;
}

/** A worker that does one job and exits; start-up fails if it fails. */
function runToCompletion(env: Record<string, string>, what: string) {
  return new Promise<void>((resolve, reject) => {
    cluster.fork(env).once("exit", (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`${what} failed (code ${code}, signal ${signal})`)),
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
        reject(new Error(`a portal process stopped while starting (code ${code}, signal ${signal})`));
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
