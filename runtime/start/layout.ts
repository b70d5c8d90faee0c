import { DEVELOPMENT_SLIP_SIGNING_KEY, readServerEnv, type ServerEnv } from "../../server/env.ts";
import { clientAddressRule, readProxyEnv, type ProxyEnv } from "../../proxy/env.ts";
import type { ProxyOptions } from "../../proxy/app.ts";
import { compressWholeAnswers } from "./compress-whole-answers.ts";
import { choosePaystackSecretKey } from "../../server/paystack/secret-key.ts";
import path from "node:path";
import type { GatewayName } from "../../server/payments/gateway.ts";
import type { RemitaSettings } from "../../server/remita/gateway.ts";
import { REMITA_DEMO } from "../../server/remita/settings.ts";
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
  /** Where the Remita sandbox listens when it stands in (REMITA_API_KEY unset). */
  remitaSandboxPort: number;
  /**
   * Remita as the API reaches it, and whether the local sandbox stands in for it (no
   * REMITA_API_KEY): then the sandbox knows the portal by Remita's public demo credentials, or by
   * the merchant id and service types configured.
   */
  remita: Omit<RemitaSettings, "publicOrigin" | "fetch"> & { sandbox: boolean };
  /** The gateways students may pay through (PAYMENT_GATEWAYS). */
  offeredGateways: GatewayName[];
  /** Where mail goes without SMTP, outside production (or when production allows it). */
  outboxDir: string | undefined;
  /** Where text messages go without an SMS provider (decision 200). */
  smsOutboxDir: string | undefined;
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
  const remitaSandboxPort = serverEnv.REMITA_SANDBOX_PORT ?? proxyEnv.PORT + 7;
  const remitaSandbox = !serverEnv.REMITA_API_KEY;
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
    remitaSandboxPort,
    remita: {
      sandbox: remitaSandbox,
      baseUrl: remitaSandbox ? `http://localhost:${remitaSandboxPort}` : serverEnv.REMITA_BASE_URL,
      merchantId: serverEnv.REMITA_MERCHANT_ID ?? REMITA_DEMO.merchantId,
      apiKey: serverEnv.REMITA_API_KEY || REMITA_DEMO.apiKey,
      serviceTypes: serverEnv.REMITA_SERVICE_TYPE_ID ?? {
        fallback: REMITA_DEMO.serviceTypeId,
        byKind: {},
      },
    },
    offeredGateways: serverEnv.PAYMENT_GATEWAYS,
    outboxDir: serverEnv.SMTP_URL ? undefined : path.resolve(serverEnv.DATA_DIR, "outbox"),
    smsOutboxDir: serverEnv.SMS_PROVIDER
      ? undefined
      : path.resolve(serverEnv.DATA_DIR, "sms-outbox"),
    slipSigningKey: serverEnv.SLIP_SIGNING_SECRET ?? DEVELOPMENT_SLIP_SIGNING_KEY,
  };
}

/**
 * Whether this start serves the local Remita sandbox: without a Remita key, outside production or
 * where production allows it (a demo site). Production without either has no Remita to reach, and
 * never offers it (server/env.ts refuses PAYMENT_GATEWAYS=remita then).
 */
export function servesRemitaSandbox(layout: PortalLayout): boolean {
  const { serverEnv } = layout;
  return (
    layout.remita.sandbox &&
    (serverEnv.NODE_ENV !== "production" || serverEnv.ALLOW_REMITA_SANDBOX_IN_PRODUCTION)
  );
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
