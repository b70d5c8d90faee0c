/**
 * The Remita sandbox alone (`npm run start:remita-sandbox`), for a split deployment without a
 * Remita key: the API instances reach it at REMITA_SANDBOX_PORT on this machine, or wherever
 * REMITA_BASE_URL points them. It sends Remita's notifications to PUBLIC_ORIGIN and keeps its
 * invoices in the portal's PostgreSQL (decision 188), so several may run behind one address.
 */
import { serve } from "@hono/node-server";
import type { Server } from "node:http";
import { openDatabase } from "../../server/db/client.ts";
import { createRemitaSandbox, remitaNotificationUrl } from "../../server/remita/sandbox.ts";
import { serviceTypeIds } from "../../server/remita/settings.ts";
import { partLogger, readPortalLayout, servesRemitaSandbox } from "../start/layout.ts";
import { serveUntilStopped } from "./run-service.ts";

const layout = readPortalLayout();
const { serverEnv } = layout;
const logger = partLogger(layout, "remita-sandbox");
if (!servesRemitaSandbox(layout)) {
  logger.error(
    serverEnv.REMITA_API_KEY
      ? "REMITA_API_KEY is set: the portal uses Remita itself, not the sandbox"
      : "The Remita sandbox runs in production only with ALLOW_REMITA_SANDBOX_IN_PRODUCTION=true",
  );
  process.exit(1);
}
if (!serverEnv.DATABASE_URL) {
  // A PGlite folder belongs to one process: the API's. `npm start` runs the sandbox beside it.
  logger.error(
    "DATABASE_URL is required for a sandbox run on its own: it keeps its invoices in the portal's PostgreSQL",
  );
  process.exit(1);
}
const notificationUrl = remitaNotificationUrl(serverEnv.PUBLIC_ORIGIN);
// A small pool of its own; migrations run under their lock, whichever part starts first.
const database = await openDatabase({ url: serverEnv.DATABASE_URL, poolSize: 2 });
const stopTimer = new AbortController();
const app = createRemitaSandbox({
  db: database.db,
  merchantId: layout.remita.merchantId,
  apiKey: layout.remita.apiKey,
  serviceTypeIds: serviceTypeIds(layout.remita.serviceTypes),
  notificationUrl,
  settleEveryMs: 1_000,
  signal: stopTimer.signal,
});
const server = serve({ fetch: app.fetch, port: layout.remitaSandboxPort }) as Server;
await serveUntilStopped(server, logger, () => {
  stopTimer.abort();
  return database.close();
});
logger.warn("Remita sandbox in use: no money moves");
logger.info("serving", { port: layout.remitaSandboxPort, notifications: notificationUrl });
