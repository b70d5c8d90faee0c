/**
 * The edge proxy alone on Node (`npm run start:proxy`): what students reach, on PORT. It relays
 * to the API at API_URL and the page server at PAGES_URL over HTTP, so N proxies can stand in
 * front of N of each (decision 131). On an edge runtime, proxy/worker.ts is the entry instead.
 */
import { createProxy } from "../../proxy/app.ts";
import { partLogger, proxyOptions, readPortalLayout } from "../start/layout.ts";
import { serveUntilStopped, warnWithoutProxySecret } from "./run-service.ts";
import { serveStudents } from "./student-listener.ts";

const layout = readPortalLayout();
const { serverEnv, proxyEnv } = layout;
const logger = partLogger(layout, "proxy");
warnWithoutProxySecret(proxyEnv.PROXY_SHARED_SECRET, logger, serverEnv.NODE_ENV);
const proxy = createProxy(proxyOptions(layout));
const server = serveStudents(proxy.fetch, { env: proxyEnv, logger });
await serveUntilStopped(server, logger);
logger.info("serving", {
  proxy: `http://localhost:${proxyEnv.PORT}`,
  api: layout.apiUrl,
  pages: layout.pagesUrl,
});
