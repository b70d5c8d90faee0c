import type { Database } from "../../server/db/client.ts";
import type { Logger } from "../../server/http/logger.ts";
import type { ProxyEnv } from "../../proxy/env.ts";
import type { ProxyOptions } from "../../proxy/app.ts";
import { createGate } from "../../proxy/waiting-line/gate.ts";
import { ticketSigner } from "../../proxy/waiting-line/tickets.ts";
import { databaseLineStore } from "../../server/waiting-line/line-store.ts";
import { machineBusyShare } from "./machine-busy.ts";

/**
 * The line at the door for a proxy on Node (decision 193), on the database every proxy shares.
 * The cookies are signed with the proxy's shared secret, which every process of one portal holds;
 * without one (a lone proxy in development), with a key of this process's own.
 */
export async function waitingLineOnNode(options: {
  db: Database;
  env: Pick<
    ProxyEnv,
    | "WAITING_LINE"
    | "WAITING_LINE_MAX_PER_SECOND"
    | "WAITING_LINE_MIN_PER_SECOND"
    | "PROXY_SHARED_SECRET"
  >;
  logger: Logger;
}): Promise<ProxyOptions["waitingLine"]> {
  const { env, logger } = options;
  if (env.WAITING_LINE === "off") return undefined;
  const maxPerSecond = env.WAITING_LINE_MAX_PER_SECOND;
  const minPerSecond = env.WAITING_LINE_MIN_PER_SECOND;
  let lastStoreWarning = 0;
  const onStoreError = (error: unknown) => {
    // Once a minute at most: on a database outage every request would say it.
    if (Date.now() - lastStoreWarning < 60_000) return;
    lastStoreWarning = Date.now();
    logger.warn("waiting line: its numbers could not be read or moved; the door is open", {
      error: error instanceof Error ? error.message : String(error),
    });
  };
  return {
    gate: createGate({
      store: databaseLineStore(options.db),
      settings: {
        maxPerSecond,
        minPerSecond,
        startPerSecond: Math.min(Math.max(5, minPerSecond), maxPerSecond),
      },
      busyShare: machineBusyShare(),
      report: (line) => logger.warn("waiting line", line),
      onStoreError,
    }),
    signer: await ticketSigner(env.PROXY_SHARED_SECRET ?? crypto.randomUUID()),
    onStoreError,
  };
}
