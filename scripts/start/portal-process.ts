import type { Server } from "node:http";
import { createServer } from "node:http";
import path from "node:path";
import { serve } from "@hono/node-server";
import type { ServerEnv } from "../../server/env.ts";
import type { ProxyEnv } from "../../proxy/env.ts";
import { openDatabase } from "../../server/db/client.ts";
import { createApi } from "../../server/app.ts";
import type { Logger } from "../../server/http/logger.ts";
import { createFileStorage } from "../../server/uploads/file-storage.ts";
import { createProxy } from "../../proxy/app.ts";
import { clientAddressRule } from "../../proxy/env.ts";
import { logLevelOf, logsRequests } from "../../src/lib/log/log-level.ts";
import { createPaystackClient } from "../../server/paystack/client.ts";
import { createOutboxMailer, createSmtpMailer } from "../../server/mail/mailer.ts";
import { startJobQueue } from "../../server/jobs/job-queue.ts";
import { scheduledWork } from "../../server/jobs/scheduled-work.ts";
import { createPaymentReceipts } from "../../server/payments/receipt.ts";
import { useInProcessApi } from "../../src/lib/api/in-process-api.ts";
import { loadBuiltPages } from "./in-process-pages.ts";
import { closeServer } from "./close-server.ts";

/** Where this process finds the rest of the portal, as the start script worked it out. */
export type PortalLayout = {
  serverEnv: ServerEnv;
  proxyEnv: ProxyEnv;
  apiPort: number;
  pagesPort: number;
  apiUrl: string;
  pagesUrl: string;
  paystack: { baseUrl: string; secretKey: string };
  outboxDir: string | undefined;
  /** Outside production a fixed key keeps demo slips verifiable across restarts. */
  slipSigningKey: string;
};

/**
 * One serving process of the all-in-one start: the API, the pages and the proxy, wired to each
 * other by function calls (decision 112); the API and page ports still listen for anything that
 * calls them over HTTP. Every process takes jobs from the queue, scheduled work included: pg-boss
 * hands each job to one of them (decision 121).
 */
export async function startPortalProcess(
  layout: PortalLayout,
  options: {
    logger: Logger;
  },
) {
  const { serverEnv, proxyEnv, logger } = { ...layout, ...options };
  // The start script has migrated already; processes that start together must not race to.
  const database = serverEnv.DATABASE_URL
    ? await openDatabase({ url: serverEnv.DATABASE_URL, migrate: false, logger })
    : await openDatabase({ dir: path.join(serverEnv.DATA_DIR, "pglite"), migrate: false });
  const photos = createFileStorage(path.join(serverEnv.DATA_DIR, "uploads", "photos"));
  const mailer = serverEnv.SMTP_URL
    ? createSmtpMailer({ url: serverEnv.SMTP_URL, from: serverEnv.MAIL_FROM })
    : createOutboxMailer({ dir: layout.outboxDir!, from: serverEnv.MAIL_FROM });
  const paystack = createPaystackClient(layout.paystack);
  // Every e-mail goes through the job queue on the same database, sent by this process's worker.
  const jobs = await startJobQueue(database, { mailer, logger });
  const receipts = createPaymentReceipts({ jobs, publicOrigin: serverEnv.PUBLIC_ORIGIN, slipSigningKey: layout.slipSigningKey });
  // Receipts, then the reconciler and the clean-up jobs on their schedules.
  await jobs.work({ scheduled: scheduledWork({ db: database.db, logger, now: () => new Date(), paystack, receipts }) });
  const api = createApi({
    db: database.db,
    logger,
    now: () => new Date(),
    sessions: {
      idleMinutes: serverEnv.SESSION_IDLE_MINUTES,
      absoluteHours: serverEnv.SESSION_ABSOLUTE_HOURS,
      cacheMs: serverEnv.SESSION_CACHE_MS,
    },
    photos,
    publicOrigin: serverEnv.PUBLIC_ORIGIN,
    paystack,
    paystackSecretKey: layout.paystack.secretKey,
    jobs,
    receipts,
    supportEmail: serverEnv.SUPPORT_EMAIL,
    slipSigningKey: layout.slipSigningKey,
    outboxDir: serverEnv.NODE_ENV === "production" ? undefined : layout.outboxDir,
    proxySecret: serverEnv.PROXY_SHARED_SECRET,
  });
  // The page server reads API_URL when it renders; set it before its module loads.
  process.env.API_URL = layout.apiUrl;
  useInProcessApi(api.fetch);
  const pages = await loadBuiltPages();

  const apiOrigin = new URL(layout.apiUrl).origin;
  const pagesOrigin = new URL(layout.pagesUrl).origin;
  const proxy = createProxy({
    publicOrigin: serverEnv.PUBLIC_ORIGIN,
    apiUrl: layout.apiUrl,
    pagesUrl: layout.pagesUrl,
    clientAddress: clientAddressRule(proxyEnv),
    proxySecret: proxyEnv.PROXY_SHARED_SECRET,
    logRequests: logsRequests(logLevelOf(proxyEnv)),
    fetch: async (request) => {
      const origin = new URL(request.url).origin;
      if (origin === apiOrigin) return api.fetch(request);
      if (origin === pagesOrigin) return pages.fetch(request);
      return fetch(request);
    },
  });

  const servers: Server[] = [
    serve({ fetch: api.fetch, hostname: "127.0.0.1", port: layout.apiPort }) as Server,
    createServer(pages.handler).listen(layout.pagesPort, "127.0.0.1"),
    serve({ fetch: proxy.fetch, port: proxyEnv.PORT }) as Server,
  ];
  await Promise.all(servers.map((server) => (server.listening ? undefined : new Promise((resolve) => server.once("listening", resolve)))));

  return {
    database,
    mailer,
    async stop() {
      await Promise.all(servers.map((server) => closeServer(server)));
      await jobs.stop();
      await database.close();
    },
  };
}

