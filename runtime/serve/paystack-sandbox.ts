/**
 * The Paystack sandbox alone (`npm run start:sandbox`), for a split deployment that has no
 * Paystack key: the API instances point PAYSTACK_BASE_URL at it and share its key. It listens on
 * PAYSTACK_SANDBOX_PORT and sends its webhooks to PUBLIC_ORIGIN, as Paystack would. It keeps its
 * transactions in the portal's PostgreSQL (decision 129), so several may run behind one address.
 */
import { serve } from "@hono/node-server";
import type { Server } from "node:http";
import { openDatabase } from "../../server/db/client.ts";
import { createPaystackSandbox, sandboxWebhookUrl } from "../../server/paystack/sandbox.ts";
import { partLogger, readPortalLayout } from "../start/layout.ts";
import { serveUntilStopped } from "./run-service.ts";

const layout = readPortalLayout();
const { serverEnv } = layout;
const logger = partLogger(layout, "paystack-sandbox");
if (serverEnv.NODE_ENV === "production" && !serverEnv.PAYSTACK_SECRET_KEY) {
  // The API instances could not know a key this process made up.
  logger.error(
    "PAYSTACK_SECRET_KEY (an sk_test_ key of your choosing) is required for a sandbox run on its own in production",
  );
  process.exit(1);
}
if (!serverEnv.DATABASE_URL) {
  // A PGlite folder belongs to one process: the API's. `npm start` runs the sandbox beside it.
  logger.error(
    "DATABASE_URL is required for a sandbox run on its own: it keeps its transactions in the portal's PostgreSQL",
  );
  process.exit(1);
}
const publicUrl = serverEnv.PAYSTACK_SECRET_KEY
  ? serverEnv.PAYSTACK_BASE_URL
  : layout.paystack.baseUrl;
const webhookUrl = sandboxWebhookUrl(serverEnv.PUBLIC_ORIGIN);
// A small pool of its own; migrations run under their lock, whichever part starts first.
const database = await openDatabase({ url: serverEnv.DATABASE_URL, poolSize: 2 });
const app = createPaystackSandbox({
  db: database.db,
  secretKey: layout.paystack.secretKey,
  publicUrl,
  webhookUrl,
  settleRefundsAfterMs: 1_000,
});
const server = serve({ fetch: app.fetch, port: layout.sandboxPort }) as Server;
await serveUntilStopped(server, logger, () => database.close());
logger.warn("Paystack sandbox in use: no money moves");
logger.info("serving", { checkout: publicUrl, webhooks: webhookUrl });
