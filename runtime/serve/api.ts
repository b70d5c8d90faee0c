/**
 * The college API alone (`npm run start:api`), for a deployment that runs N of them behind a load
 * balancer on one PostgreSQL (decision 131). Migrates under the migrations' lock, loads the demo
 * data outside production, takes its share of the job queue, and listens on API_HOST:API_PORT.
 */
import { serve } from "@hono/node-server";
import type { Server } from "node:http";
import { partLogger, readPortalLayout } from "../start/layout.ts";
import { prepareDatabase, startApiService } from "../start/api-service.ts";
import { closeAfterEarlyAnswers } from "../start/close-after-early-answers.ts";
import { serveUntilStopped, warnWithoutProxySecret } from "./run-service.ts";

const layout = readPortalLayout();
const { serverEnv } = layout;
const logger = partLogger(layout, "api");
warnWithoutProxySecret(serverEnv.PROXY_SHARED_SECRET, logger, serverEnv.NODE_ENV);
if (!serverEnv.PAYSTACK_SECRET_KEY && serverEnv.NODE_ENV === "production") {
  // A sandbox started elsewhere cannot know a key this process made up.
  logger.error("PAYSTACK_SECRET_KEY is required when the API runs on its own in production");
  process.exit(1);
}

await prepareDatabase(layout, logger);
const service = await startApiService(layout, { logger, migrate: false });
const server = closeAfterEarlyAnswers(
  serve({ fetch: service.api.fetch, hostname: serverEnv.API_HOST, port: layout.apiPort }) as Server,
);
await serveUntilStopped(server, logger, service.stop);
logger.info("serving", {
  api: `http://${serverEnv.API_HOST}:${layout.apiPort}`,
  database: serverEnv.DATABASE_URL ? "postgres" : "pglite",
  paystack: layout.paystack.baseUrl,
  remita: layout.remita.baseUrl,
  mail: service.mailer.describe(),
});
