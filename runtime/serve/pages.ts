/**
 * The page server alone (`npm run start:pages`, after `npm run build`): renders the pages, asking
 * the API at API_URL over HTTP, and serves the built assets precompressed; listens on
 * PAGES_HOST:PAGES_PORT (decision 131).
 */
import { serve } from "@hono/node-server";
import type { Server } from "node:http";
import { partLogger, readPortalLayout } from "../start/layout.ts";
import { loadBuiltPages } from "../start/in-process-pages.ts";
import { closeAfterEarlyAnswers } from "../start/close-after-early-answers.ts";
import { serveUntilStopped, warnWithoutProxySecret } from "./run-service.ts";

const layout = readPortalLayout();
const { serverEnv } = layout;
const logger = partLogger(layout, "pages");
warnWithoutProxySecret(serverEnv.PROXY_SHARED_SECRET, logger, serverEnv.NODE_ENV);
// The page server reads API_URL when it renders; a default worked out from PORT counts too.
process.env.API_URL = layout.apiUrl;
const pages = await loadBuiltPages();
const server = closeAfterEarlyAnswers(
  serve({ fetch: pages.fetch, hostname: serverEnv.PAGES_HOST, port: layout.pagesPort }) as Server,
);
await serveUntilStopped(server, logger);
logger.info("serving", {
  pages: `http://${serverEnv.PAGES_HOST}:${layout.pagesPort}`,
  api: layout.apiUrl,
});
