import { DEVELOPMENT_SLIP_SIGNING_KEY, readServerEnv, type ServerEnv } from "../../server/env.ts";
import { clientAddressRule, readProxyEnv, type ProxyEnv } from "../../proxy/env.ts";
import type { ProxyOptions } from "../../proxy/app.ts";
import { compressWholeAnswers } from "./compress-whole-answers.ts";
import { choosePaystackSecretKey } from "../../server/paystack/secret-key.ts";
import path from "node:path";
import { createLogger } from "../../server/http/logger.ts";
import { logLevelOf, logsRequests } from "../../common/log/log-level.ts";
import { writeLine } from "../../common/log/standard-output.server.ts";

/**
 * Where each part of the portal listens and how the parts reach each other, worked out once from
 * the environment: by `npm start` for all of them in one place, and by each `npm run start:*`
 * entry for the one part it runs, so a split deployment reads the same settings the same way.
 */
export type PortalLayout = {
  serverEnv: ServerEnv;
  proxyEnv: ProxyEnv;
  apiPort: number;
  pagesPort: number;
  sandboxPort: number;
  apiUrl: string;
  pagesUrl: string;
  paystack: { baseUrl: string; secretKey: string };
  /** Where mail goes without SMTP, outside production (or when production allows it). */
  outboxDir: string | undefined;
  /** Outside production a fixed key keeps demo slips verifiable across restarts. */
  slipSigningKey: string;
};

/**
 * `sandboxKey`: the key a sandbox started elsewhere in this start was given (a production demo's
 * sandbox makes a random one, which every process of the start must share).
 */
export function portalLayout(
  serverEnv: ServerEnv,
  proxyEnv: ProxyEnv,
  sandboxKey?: string,
): PortalLayout {
  const apiPort = serverEnv.API_PORT ?? proxyEnv.PORT + 1;
  const pagesPort = serverEnv.PAGES_PORT ?? proxyEnv.PORT + 2;
  const sandboxPort = serverEnv.PAYSTACK_SANDBOX_PORT ?? proxyEnv.PORT + 8;
  return {
    serverEnv,
    proxyEnv,
    apiPort,
    pagesPort,
    sandboxPort,
    apiUrl: proxyEnv.API_URL ?? `http://127.0.0.1:${apiPort}`,
    pagesUrl: proxyEnv.PAGES_URL ?? `http://127.0.0.1:${pagesPort}`,
    // Without a Paystack key the local sandbox stands in, speaking the same HTTP API.
    paystack: {
      baseUrl: serverEnv.PAYSTACK_SECRET_KEY
        ? serverEnv.PAYSTACK_BASE_URL
        : `http://localhost:${sandboxPort}`,
      secretKey:
        !serverEnv.PAYSTACK_SECRET_KEY && serverEnv.NODE_ENV === "production" && sandboxKey
          ? sandboxKey
          : choosePaystackSecretKey({
              nodeEnv: serverEnv.NODE_ENV,
              configuredKey: serverEnv.PAYSTACK_SECRET_KEY,
            }),
    },
    outboxDir: serverEnv.SMTP_URL ? undefined : path.resolve(serverEnv.DATA_DIR, "outbox"),
    slipSigningKey: serverEnv.SLIP_SIGNING_SECRET ?? DEVELOPMENT_SLIP_SIGNING_KEY,
  };
}

/** Set by `npm start` for its own processes only; not a setting. */
export const SANDBOX_KEY_VARIABLE = "PORTAL_SANDBOX_SECRET_KEY";

/** The layout from this process's environment; a bad setting ends the process with its message. */
export function readPortalLayout(source: NodeJS.ProcessEnv = process.env): PortalLayout {
  try {
    return portalLayout(readServerEnv(source), readProxyEnv(source), source[SANDBOX_KEY_VARIABLE]);
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
}

/** A logger for one part of the portal, at the LOG_LEVEL in force (decision 125). */
export function partLogger(layout: PortalLayout, name: string) {
  return createLogger({ name, level: logLevelOf(layout.serverEnv) });
}

/** The proxy's options from the layout; `fetch` when the API and pages are in the same process. */
export function proxyOptions(layout: PortalLayout, fetch?: ProxyOptions["fetch"]): ProxyOptions {
  const { serverEnv, proxyEnv } = layout;
  return {
    publicOrigin: serverEnv.PUBLIC_ORIGIN,
    apiUrl: layout.apiUrl,
    pagesUrl: layout.pagesUrl,
    clientAddress: clientAddressRule(proxyEnv),
    proxySecret: proxyEnv.PROXY_SHARED_SECRET,
    logRequests: logsRequests(logLevelOf(proxyEnv)) ? writeLine : undefined,
    compress: compressWholeAnswers(),
    fetch,
  };
}
