import type { Server } from "node:http";

/** Stops accepting connections and ends the open ones, so a stop does not wait for idle keep-alives. */
export function closeServer(server: Server) {
  return new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections?.();
  });
}
