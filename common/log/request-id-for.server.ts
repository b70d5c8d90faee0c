import { randomUUID } from "node:crypto";
import { isRequestId, REQUEST_ID_HEADER } from "../http/request-id.ts";
import { sentByProxy } from "../http/sent-by-proxy.server.ts";

/**
 * The id a request is logged under (decision 125): the one our proxy made, when the request
 * carries the proxy's secret and the id has the proxy's shape; otherwise a new one. Anyone else
 * could name an id they saw elsewhere and mix their lines into another student's request.
 */
export function requestIdFor(headers: Headers, proxySecret: string | undefined): string {
  const given = headers.get(REQUEST_ID_HEADER);
  return isRequestId(given) && sentByProxy(headers, proxySecret) ? given : randomUUID();
}
