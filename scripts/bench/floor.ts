import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

/** A running local HTTP server. */
export interface LocalServer {
  url: string;
  close(): Promise<void>;
}

// One line, one request: the icon is inlined so the browser does not ask for /favicon.ico.
const FLOOR_HTML =
  '<!doctype html><html lang="en"><meta name="viewport" content="width=device-width">' +
  '<link rel="icon" href="data:,"><title>Floor</title><p>The floor: one line, one request.</p>\n';

/**
 * Serves the one-line page whose LCP is the floor: the best any page can do on a given
 * network, since it costs exactly one round trip and a few hundred bytes.
 */
export function startFloorServer(): Promise<LocalServer> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    response.end(FLOOR_HTML);
  });
  return listen(server);
}

/** Listens on a free port of 127.0.0.1 and resolves with the server's base URL. */
export function listen(server: ReturnType<typeof createServer>): Promise<LocalServer> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}/`,
        close: () => {
          server.closeAllConnections();
          return new Promise((done) => server.close(() => done()));
        },
      });
    });
  });
}
