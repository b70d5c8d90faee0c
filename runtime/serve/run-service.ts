import type { Server } from "node:http";
import type { Logger } from "../../server/http/logger.ts";
import { closeServer } from "../start/close-server.ts";

/**
 * Waits until `server` listens, then keeps the process serving until SIGTERM or SIGINT: it stops
 * accepting, lets `release` hand back what the part holds (the queue, the database), and exits.
 * A load balancer's health check sees the instance go before its requests fail.
 */
export async function serveUntilStopped(
  server: Server,
  logger: Logger,
  release: () => Promise<void> = async () => {},
) {
  if (!server.listening) {
    await new Promise<void>((resolve, reject) => {
      server.once("listening", resolve);
      server.once("error", reject);
    });
  }
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info("stopping", { signal });
    await closeServer(server);
    await release();
    process.exit(0);
  };
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));
}

/** Split deployments name the secret themselves: a random one per process would differ between parts. */
export function warnWithoutProxySecret(
  secret: string | undefined,
  logger: Logger,
  nodeEnv: string,
) {
  if (secret) return;
  const message =
    "PROXY_SHARED_SECRET is unset: the API will not believe the client addresses the proxy passes on, so every student shares the proxy's rate limits (decision 122)";
  if (nodeEnv === "production") {
    logger.error(message);
    process.exit(1);
  }
  logger.warn(message);
}
