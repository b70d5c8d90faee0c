/**
 * The Paystack sandbox alone (`npm run start:sandbox`), for a split deployment that has no
 * Paystack key: the API instances point PAYSTACK_BASE_URL at it and share its key. It listens on
 * PAYSTACK_SANDBOX_PORT and sends its webhooks to PUBLIC_ORIGIN, as Paystack would.
 */
import { serve } from "@hono/node-server";
import type { Server } from "node:http";
import { createPaystackSandbox } from "../../server/paystack/sandbox.ts";
import { partLogger, readPortalLayout } from "../start/layout.ts";
import { serveUntilStopped } from "./run-service.ts";

const layout = readPortalLayout();
const { serverEnv } = layout;
const logger = partLogger(layout, "paystack-sandbox");
if (serverEnv.NODE_ENV === "production" && !serverEnv.PAYSTACK_SECRET_KEY) {
  // The API instances could not know a key this process made up.
  logger.error("PAYSTACK_SECRET_KEY (an sk_test_ key of your choosing) is required for a sandbox run on its own in production");
  process.exit(1);
}
const publicUrl = serverEnv.PAYSTACK_SECRET_KEY ? serverEnv.PAYSTACK_BASE_URL : layout.paystack.baseUrl;
const app = createPaystackSandbox({
  secretKey: layout.paystack.secretKey,
  publicUrl,
  webhookUrl: new URL("/api/paystack/webhook", serverEnv.PUBLIC_ORIGIN).toString(),
  settleRefundsAfterMs: 1_000,
});
const server = serve({ fetch: app.fetch, port: layout.sandboxPort }) as Server;
await serveUntilStopped(server, logger);
logger.warn("Paystack sandbox in use: no money moves");
logger.info("serving", { checkout: publicUrl, webhooks: new URL("/api/paystack/webhook", serverEnv.PUBLIC_ORIGIN).toString() });
