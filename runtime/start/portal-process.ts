import type { Server } from "node:http";
import { createServer } from "node:http";
import { serve } from "@hono/node-server";
import type { Logger } from "../../server/http/logger.ts";
import { createProxy } from "../../proxy/app.ts";
import { useInProcessApi } from "../../src/lib/api/in-process-api.server.ts";
import { createPaystackSandbox, sandboxWebhookUrl } from "../../server/paystack/sandbox.ts";
import { startApiService } from "./api-service.ts";
import { loadBuiltPages } from "./in-process-pages.ts";
import { closeServer } from "./close-server.ts";
import { closeAfterEarlyAnswers } from "./close-after-early-answers.ts";
import { serveStudents } from "../serve/student-listener.ts";
import { proxyOptions, servesRemitaSandbox, type PortalLayout } from "./layout.ts";
import { createRemitaSandbox, remitaNotificationUrl } from "../../server/remita/sandbox.ts";
import { serviceTypeIds } from "../../server/remita/settings.ts";
import { waitingLineOnNode } from "../serve/waiting-line.ts";

export type { PortalLayout } from "./layout.ts";

/**
 * One serving process of the all-in-one start: the API, the pages and the proxy, wired to each
 * other by function calls (decision 112); the API and page ports still listen for anything that
 * calls them over HTTP. Without a Paystack key each process also serves the sandbox's port, on its
 * own database connection: the sandbox keeps its transactions in the database, so any process
 * answers for any of them (decision 129); without a Remita key, Remita's sandbox too (decision 188). A split deployment runs the same parts apart
 * (`npm run start:api`, `start:pages`, `start:proxy`, `start:sandbox`; decision 131).
 */
export async function startPortalProcess(
  layout: PortalLayout,
  options: {
    logger: Logger;
  },
) {
  const { serverEnv, proxyEnv } = layout;
  // The start script has migrated already; processes that start together must not race to.
  const {
    api,
    database,
    mailer,
    stop: stopApi,
  } = await startApiService(layout, { logger: options.logger, migrate: false });
  // The page server reads API_URL when it renders; set it before its module loads.
  process.env.API_URL = layout.apiUrl;
  // Parts handed a request by a function call leave its line to whoever took it over HTTP.
  const handedOver = { loggedByCaller: true };
  useInProcessApi((request) => api.fetch(request, handedOver));
  const pages = await loadBuiltPages();

  const apiOrigin = new URL(layout.apiUrl).origin;
  const pagesOrigin = new URL(layout.pagesUrl).origin;
  const proxy = createProxy({
    ...proxyOptions(layout, async (request) => {
      const origin = new URL(request.url).origin;
      if (origin === apiOrigin) return api.fetch(request, handedOver);
      if (origin === pagesOrigin) return pages.fetch(request);
      return fetch(request);
    }),
    waitingLine: await waitingLineOnNode({
      db: database.db,
      env: proxyEnv,
      logger: options.logger,
    }),
  });

  const servers: Server[] = [
    closeAfterEarlyAnswers(
      serve({ fetch: api.fetch, hostname: serverEnv.API_HOST, port: layout.apiPort }) as Server,
    ),
    closeAfterEarlyAnswers(createServer(pages.handler)).listen(
      layout.pagesPort,
      serverEnv.PAGES_HOST,
    ),
    serveStudents(proxy.fetch, { env: proxyEnv, logger: options.logger }),
  ];
  if (!serverEnv.PAYSTACK_SECRET_KEY) {
    const sandbox = createPaystackSandbox({
      db: database.db,
      secretKey: layout.paystack.secretKey,
      publicUrl: layout.paystack.baseUrl,
      webhookUrl: sandboxWebhookUrl(serverEnv.PUBLIC_ORIGIN),
      // Paystack settles refunds later; the sandbox does so after a second, then sends refund.processed.
      settleRefundsAfterMs: 1_000,
    });
    servers.push(serve({ fetch: sandbox.fetch, port: layout.sandboxPort }) as Server);
  }
  // Stops the Remita sandbox's timer before the database closes.
  const stopRemitaTimer = new AbortController();
  if (servesRemitaSandbox(layout)) {
    const remita = createRemitaSandbox({
      db: database.db,
      merchantId: layout.remita.merchantId,
      apiKey: layout.remita.apiKey,
      serviceTypeIds: serviceTypeIds(layout.remita.serviceTypes),
      notificationUrl: remitaNotificationUrl(serverEnv.PUBLIC_ORIGIN),
      // A bank payment due later arrives within a second of its time, even with no one asking.
      // Where Remita is not offered no one is paying by bank: what is due from before settles
      // when the reconciler asks about it, and the portal saves a database write a second.
      settleEveryMs: layout.offeredGateways.includes("remita") ? 1_000 : undefined,
      signal: stopRemitaTimer.signal,
    });
    servers.push(serve({ fetch: remita.fetch, port: layout.remitaSandboxPort }) as Server);
  }
  await Promise.all(
    servers.map((server) =>
      server.listening ? undefined : new Promise((resolve) => server.once("listening", resolve)),
    ),
  );

  return {
    database,
    mailer,
    async stop() {
      await Promise.all(servers.map((server) => closeServer(server)));
      stopRemitaTimer.abort();
      await stopApi();
    },
  };
}
