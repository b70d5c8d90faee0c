/**
 * The edge proxy alone on Node (`npm run start:proxy`): what students reach, on PORT. It relays
 * to the API at API_URL and the page server at PAGES_URL over HTTP, so N proxies can stand in
 * front of N of each (decision 131). On an edge runtime, proxy/worker.ts is the entry instead.
 * With DATABASE_URL it keeps the line at the door on that PostgreSQL, shared with every other
 * proxy there (decision 193), through two connections of its own; without it, no line.
 */
import { createProxy } from "../../proxy/app.ts";
import { partLogger, proxyOptions, readPortalLayout } from "../start/layout.ts";
import { serveUntilStopped, warnWithoutProxySecret } from "./run-service.ts";
import { serveStudents } from "./student-listener.ts";
import { waitingLineOnNode } from "./waiting-line.ts";
import { openDatabase } from "../../server/db/client.ts";

const layout = readPortalLayout();
const { serverEnv, proxyEnv } = layout;
const logger = partLogger(layout, "proxy");
warnWithoutProxySecret(proxyEnv.PROXY_SHARED_SECRET, logger, serverEnv.NODE_ENV);
const lineDatabase = serverEnv.DATABASE_URL
  ? await openDatabase({ url: serverEnv.DATABASE_URL, poolSize: 2, migrate: false, logger })
  : null;
const proxy = createProxy({
  ...proxyOptions(layout),
  waitingLine: lineDatabase
    ? await waitingLineOnNode({ db: lineDatabase.db, env: proxyEnv, logger })
    : undefined,
});
const server = serveStudents(proxy.fetch, { env: proxyEnv, logger });
await serveUntilStopped(server, logger, async () => lineDatabase?.close());
logger.info("serving", {
  proxy: `http://localhost:${proxyEnv.PORT}`,
  api: layout.apiUrl,
  pages: layout.pagesUrl,
});
