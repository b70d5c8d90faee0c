import {
  createServer,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerOptions,
} from "node:http";
import { serve } from "@hono/node-server";
import type { Logger } from "../../server/http/logger.ts";
import type { ProxyEnv } from "../../proxy/env.ts";
import { sessionCookieName, staffCookieName } from "../../common/session/cookie.ts";
import { admitInTurn } from "./admission.ts";
import { closeAfterEarlyAnswers } from "../start/close-after-early-answers.ts";

/**
 * How long the listener students reach keeps an idle connection open. Node's default, 5 s, is
 * shorter than the time a student spends reading a page, so nearly every click opened a new
 * connection: on mobile data that is one more round trip before the request (two or three more
 * where TLS ends here), and for the portal a new socket to accept and hand to a serving process.
 * A minute covers the pages of one visit. It is safe only behind admission control: without it,
 * a kept connection brings its next request straight into a process that is already overloaded
 * (decision 112).
 */
export const STUDENT_KEEP_ALIVE_MS = 60_000;

/**
 * The listener students reach, on Node: the proxy's `fetch` behind admission control, with
 * connections kept open between pages. `npm start` and `npm run start:proxy` both use it.
 */
export function serveStudents(
  fetch: Parameters<typeof serve>[0]["fetch"],
  options: {
    env: Pick<
      ProxyEnv,
      | "PORT"
      | "PUBLIC_ORIGIN"
      | "MAX_REQUESTS_IN_FLIGHT"
      | "MAX_REQUESTS_WAITING"
      | "MAX_REQUEST_WAIT_MS"
    >;
    logger: Logger;
  },
): Server {
  const { env, logger } = options;
  const limits = {
    inFlight: env.MAX_REQUESTS_IN_FLIGHT,
    waiting: env.MAX_REQUESTS_WAITING,
    maxWaitMs: env.MAX_REQUEST_WAIT_MS,
  };
  const midVisit = carriesASession(env.PUBLIC_ORIGIN);
  return serve({
    fetch,
    port: env.PORT,
    createServer: ((serverOptions: ServerOptions, listener: RequestListener) => {
      const server = closeAfterEarlyAnswers(
        createServer(serverOptions, admitInTurn(listener, limits, logger, midVisit)),
      );
      server.keepAliveTimeout = STUDENT_KEEP_ALIVE_MS;
      return server;
    }) as typeof createServer,
  }) as Server;
}

/** Whether a request carries a student's or staff member's session cookie (unchecked: see admitInTurn). */
export function carriesASession(publicOrigin: string) {
  const secure = publicOrigin.startsWith("https:");
  const names = [sessionCookieName(secure), staffCookieName(secure)];
  return (request: Pick<IncomingMessage, "headers">) => {
    const cookies = request.headers.cookie;
    if (!cookies) return false;
    return cookies
      .split(";")
      .some((pair) => names.includes(pair.slice(0, pair.indexOf("=")).trim()));
  };
}
