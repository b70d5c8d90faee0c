/**
 * Starts the whole portal in one process: the college API on its database, the Astro page
 * server, and the edge proxy in front of both. `npm start` builds the pages first.
 */
import { createServer, type Server } from "node:http";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { serve } from "@hono/node-server";
import { readServerEnv } from "../server/env.ts";
import { readProxyEnv } from "../proxy/env.ts";
import { openDatabase } from "../server/db/client.ts";
import { seedDemoData } from "../server/db/seed.ts";
import { createApi } from "../server/app.ts";
import { createConsoleLogger } from "../server/http/logger.ts";
import { createFileStorage } from "../server/uploads/file-storage.ts";
import { createProxy } from "../proxy/app.ts";
import { createPaystackClient } from "../server/paystack/client.ts";
import { createPaystackSandbox } from "../server/paystack/sandbox.ts";
import { choosePaystackSecretKey } from "../server/paystack/secret-key.ts";
import { startPaymentReconciler } from "../server/payments/reconciler.ts";
import { createOutboxMailer, createSmtpMailer } from "../server/mail/mailer.ts";
import { startJobQueue } from "../server/jobs/job-queue.ts";
import { createPaymentReceipts } from "../server/payments/receipt.ts";

let serverEnv, proxyEnv;
try {
  serverEnv = readServerEnv();
  proxyEnv = readProxyEnv();
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}
const logger = createConsoleLogger("portal");
const port = proxyEnv.PORT;
const apiPort = serverEnv.API_PORT ?? port + 1;
const pagesPort = serverEnv.PAGES_PORT ?? port + 2;
const apiUrl = proxyEnv.API_URL ?? `http://127.0.0.1:${apiPort}`;
const pagesUrl = proxyEnv.PAGES_URL ?? `http://127.0.0.1:${pagesPort}`;

const database = serverEnv.DATABASE_URL
  ? await openDatabase({ url: serverEnv.DATABASE_URL })
  : await openDatabase({ dir: path.join(serverEnv.DATA_DIR, "pglite") });
const photos = createFileStorage(path.join(serverEnv.DATA_DIR, "uploads", "photos"));
if (serverEnv.NODE_ENV !== "production") {
  if (await seedDemoData(database.db, { photos, nodeEnv: serverEnv.NODE_ENV })) {
    logger.info("demo data loaded", { students: ["08030000001", "08030000002", "08030000003 (record locked)"] });
  }
}

const servers: Server[] = [];

// Without a Paystack key the local sandbox stands in, speaking the same HTTP API.
const sandboxPort = serverEnv.PAYSTACK_SANDBOX_PORT ?? port + 8;
const paystackSecretKey = choosePaystackSecretKey({
  nodeEnv: serverEnv.NODE_ENV,
  configuredKey: serverEnv.PAYSTACK_SECRET_KEY,
});
let paystackBaseUrl = serverEnv.PAYSTACK_BASE_URL;
if (!serverEnv.PAYSTACK_SECRET_KEY) {
  paystackBaseUrl = `http://localhost:${sandboxPort}`;
  const sandbox = createPaystackSandbox({
    secretKey: paystackSecretKey,
    publicUrl: paystackBaseUrl,
    // At the public origin: the proxy refuses POSTs addressed to any other host name.
    webhookUrl: new URL("/api/paystack/webhook", serverEnv.PUBLIC_ORIGIN).toString(),
    // Paystack settles refunds later; the sandbox does so after a second, then sends refund.processed.
    settleRefundsAfterMs: 1_000,
  });
  servers.push(serve({ fetch: sandbox.fetch, port: sandboxPort }) as Server);
  logger.warn("Paystack sandbox in use: no money moves", { checkout: paystackBaseUrl });
}
const outboxDir = serverEnv.SMTP_URL ? undefined : path.resolve(serverEnv.DATA_DIR, "outbox");
const mailer = serverEnv.SMTP_URL
  ? createSmtpMailer({ url: serverEnv.SMTP_URL, from: serverEnv.MAIL_FROM })
  : createOutboxMailer({ dir: outboxDir!, from: serverEnv.MAIL_FROM });

const paystack = createPaystackClient({ baseUrl: paystackBaseUrl, secretKey: paystackSecretKey });
// Mail that must not be lost (receipts) goes through the job queue on the same database.
const jobs = await startJobQueue(database, { mailer, logger });
await jobs.work();
// Outside production a fixed key keeps demo slips verifiable across restarts.
const slipSigningKey = serverEnv.SLIP_SIGNING_SECRET ?? "development-only-slip-signing-key-not-secret";
const receipts = createPaymentReceipts({ jobs, publicOrigin: serverEnv.PUBLIC_ORIGIN, slipSigningKey });
const api = createApi({
  db: database.db,
  logger,
  now: () => new Date(),
  sessions: { idleMinutes: serverEnv.SESSION_IDLE_MINUTES, absoluteHours: serverEnv.SESSION_ABSOLUTE_HOURS },
  photos,
  publicOrigin: serverEnv.PUBLIC_ORIGIN,
  paystack,
  paystackSecretKey,
  mailer,
  receipts,
  supportEmail: serverEnv.SUPPORT_EMAIL,
  slipSigningKey,
  outboxDir: serverEnv.NODE_ENV === "production" ? undefined : outboxDir,
});
servers.push(serve({ fetch: api.fetch, hostname: "127.0.0.1", port: apiPort }) as Server);
// Pending payments whose browser closed and whose webhook was lost are credited from here.
const reconciler = startPaymentReconciler({ db: database.db, logger, now: () => new Date(), paystack, receipts });

// The page server reads these when it renders; set them before its module loads.
process.env.API_URL = apiUrl;
process.env.ASTRO_NODE_AUTOSTART = "disabled";
const entry = pathToFileURL(path.resolve("dist/server/entry.mjs")).href;
const { handler } = (await import(entry)) as { handler: Parameters<typeof createServer>[1] };
const pages = createServer(handler);
await new Promise<void>((resolve) => pages.listen(pagesPort, "127.0.0.1", resolve));
servers.push(pages);

const proxy = createProxy({ publicOrigin: serverEnv.PUBLIC_ORIGIN, apiUrl, pagesUrl });
servers.push(serve({ fetch: proxy.fetch, port }) as Server);
logger.info("services", { api: apiUrl, pages: pagesUrl, database: database.driver, mail: mailer.describe() });
if (outboxDir) console.log(`Mail outbox (development): http://localhost:${port}/api/dev/outbox`);
console.log(`Portal ready on http://localhost:${port}`);

let stopping = false;
async function stop(signal: string) {
  if (stopping) return;
  stopping = true;
  logger.info("stopping", { signal });
  await Promise.all(
    servers.map((server) => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections?.();
    })),
  );
  await reconciler.stop();
  await jobs.stop();
  await database.close();
  process.exit(0);
}
process.on("SIGINT", () => void stop("SIGINT"));
process.on("SIGTERM", () => void stop("SIGTERM"));
