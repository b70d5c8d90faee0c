import type { IncomingMessage, Server, ServerResponse } from "node:http";

/**
 * Makes `server` answer `Connection: close` whenever it answers a request before the request's
 * body has all arrived: a 413 that refused the body by its declared length, or by counting it
 * half-way, and any other answer given without reading (a sign-in redirect, a busy 503).
 *
 * Left alone, such an answer says keep-alive, and then the connection is dropped anyway: the Node
 * adapter stops reading an unread body after half a second or 64 MiB, and a body counted
 * half-way cannot be read on, so the browser's next request on that connection fails with a
 * reset (a POST it will not retry). Closing keeps the promise, and stops a phone on slow data
 * from sending the rest of a refused photo (decision 147).
 *
 * At the Node listener, where the proxy, the page server and the API all meet, so that the proxy's
 * own code stays web-standard for the edge.
 */
export function closeAfterEarlyAnswers<S extends Server>(server: S): S {
  // First, so the response is prepared before any part of the portal can answer it.
  server.prependListener("request", (request: IncomingMessage, response: ServerResponse) => {
    if (!carriesABody(request)) return;
    const writeHead = response.writeHead;
    // Node stores the headers when they are set out, explicitly or at the first write; both go
    // through writeHead. A body that has all arrived, read or not, leaves the connection usable.
    response.writeHead = function (
      this: ServerResponse,
      ...args: Parameters<ServerResponse["writeHead"]>
    ) {
      if (!request.complete) this.setHeader("connection", "close");
      return writeHead.apply(this, args);
    } as ServerResponse["writeHead"];
  });
  return server;
}

/** Whether a request has a body (RFC 9112 §6.3): chunked, or a length above zero. */
function carriesABody(request: IncomingMessage) {
  const length = request.headers["content-length"];
  return (
    request.headers["transfer-encoding"] !== undefined || (length !== undefined && length !== "0")
  );
}
