import { createRemitaClient } from "./client.ts";
import { paymentInitHash, remitaAuthorization, statusHash } from "./hash.ts";
import { createRemitaSandbox } from "./sandbox.ts";
import type { Database } from "../db/client.ts";
import { fetchInProcess } from "../testing/in-process-fetch.test-kit.ts";

/** How the sandbox tests' client and sandbox know each other. */
export const TEST_REMITA = {
  merchantId: "2547916",
  apiKey: "sandbox-test-key",
  serviceTypeId: "4430731",
} as const;

export const PAYMENT_INIT = "/remita/exapp/api/v1/send/api/echannelsvc/merchant/api/paymentinit";
export const ECHANNEL = "/remita/exapp/api/v1/send/api/echannelsvc";

/**
 * A Remita sandbox on `db` with a clock the test moves, the notifications it sent, a client the
 * API would use against it, and the raw calls a test makes of it by hand.
 */
export function remitaSandboxFor(
  db: Database,
  options: {
    signal?: AbortSignal;
    random?: () => number;
    hangMs?: number;
    settleEveryMs?: number;
    receiver?: (body: string) => Response;
  } = {},
) {
  let now = new Date("2025-01-15T09:00:00.000Z");
  const notifications: { url: string; body: string; headers: Headers }[] = [];
  const app = createRemitaSandbox({
    db,
    merchantId: TEST_REMITA.merchantId,
    apiKey: TEST_REMITA.apiKey,
    serviceTypeIds: [TEST_REMITA.serviceTypeId, "4430732"],
    notificationUrl: "http://api.test/remita/webhook",
    now: () => now,
    random: options.random,
    hangMs: options.hangMs,
    settleEveryMs: options.settleEveryMs,
    signal: options.signal,
    fetch: async (url, init) => {
      const body = String(init?.body);
      notifications.push({ url: String(url), body, headers: new Headers(init?.headers) });
      return options.receiver?.(body) ?? new Response("OK");
    },
  });
  const inProcess = fetchInProcess(app);
  /** What our client sent, as the sandbox received it. */
  const received: { method: string; path: string; headers: Headers; body: string }[] = [];
  const client = (timeoutMs?: number) =>
    createRemitaClient({
      baseUrl: "http://remita-sandbox.test",
      merchantId: TEST_REMITA.merchantId,
      apiKey: TEST_REMITA.apiKey,
      timeoutMs,
      fetch: async (input, init) => {
        const request = new Request(input, init);
        received.push({
          method: request.method,
          path: new URL(request.url).pathname,
          headers: request.headers,
          body: await request.clone().text(),
        });
        return inProcess(request);
      },
    });

  /** paymentinit by hand: `body` merged over a valid request, hashed unless `authorization` is given. */
  function paymentInit(
    body: Record<string, unknown> = {},
    options: { authorization?: string | null } = {},
  ) {
    const full = {
      serviceTypeId: TEST_REMITA.serviceTypeId,
      amount: "25000.50",
      orderId: "ORD-1",
      payerName: "Amaka Obi",
      payerEmail: "amaka@example.com",
      payerPhone: "08030000001",
      description: "School fee 2024/2025",
      ...body,
    };
    const hash = paymentInitHash({
      merchantId: TEST_REMITA.merchantId,
      serviceTypeId: String(full.serviceTypeId),
      orderId: String(full.orderId),
      amount: String(full.amount),
      apiKey: TEST_REMITA.apiKey,
    });
    const headers: Record<string, string> = { "Content-Type": "application/json" };
    const authorization =
      options.authorization === undefined
        ? remitaAuthorization(TEST_REMITA.merchantId, hash)
        : options.authorization;
    if (authorization !== null) headers.Authorization = authorization;
    return app.request(PAYMENT_INIT, { method: "POST", headers, body: JSON.stringify(full) });
  }

  /** paymentinit's answer, unwrapped. */
  async function generate(body: Record<string, unknown> = {}) {
    const text = await (await paymentInit(body)).text();
    return JSON.parse(text.slice(7, -1)) as { statuscode: string; RRR: string; status: string };
  }

  /** status.reg (or orderstatus.reg by order id), by hand. */
  async function status(key: string, options: { byOrder?: boolean; legacy?: boolean } = {}) {
    const hash = statusHash({
      key,
      apiKey: TEST_REMITA.apiKey,
      merchantId: TEST_REMITA.merchantId,
    });
    const prefix = options.legacy ? "/remita/ecomm" : ECHANNEL;
    const call = options.byOrder ? "orderstatus.reg" : "status.reg";
    const response = await app.request(
      `${prefix}/${TEST_REMITA.merchantId}/${key}/${hash}/${call}`,
      { headers: { Authorization: remitaAuthorization(TEST_REMITA.merchantId, hash) } },
    );
    return (await response.json()) as Record<string, unknown>;
  }

  const hook = (path: string, body: unknown, key: string = TEST_REMITA.apiKey) =>
    app.request(path, {
      method: "POST",
      headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });

  return {
    app,
    notifications,
    received,
    client,
    paymentInit,
    generate,
    status,
    hook,
    advance(ms: number) {
      now = new Date(now.getTime() + ms);
    },
    now: () => now,
  };
}
