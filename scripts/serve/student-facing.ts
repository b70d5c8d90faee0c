import type { Server } from "node:http";

/**
 * How long the listener students reach keeps an idle connection open. Node's default, 5 s, is
 * shorter than the time a student spends reading a page, so nearly every click opened a new
 * connection: on mobile data that is one more round trip before the request (two or three more
 * where TLS ends here), and for the portal a new socket to accept and hand to a serving process.
 * A minute covers the pages of one visit; browsers keep theirs open about as long or longer.
 * Idle connections are cheap to hold and are closed at once when the portal stops.
 */
export const STUDENT_KEEP_ALIVE_MS = 60_000;

/** Sets the keep-alive of a listener students reach (the proxy's): see STUDENT_KEEP_ALIVE_MS. */
export function keepStudentsConnected<T extends Server>(server: T): T {
  server.keepAliveTimeout = STUDENT_KEEP_ALIVE_MS;
  return server;
}
