/**
 * The proxy as a module worker, for workerd or Cloudflare Workers (decision 127): the same
 * createProxy() the Node start uses, configured from the worker's bindings instead of process.env.
 * Bundle it with `npm run build:worker`; README lists the bindings.
 */
import type { ExecutionContext } from "hono";
import { z } from "zod";
import { parseEnv } from "../common/config/parse-env.ts";
import { createProxy } from "./app.ts";
import { clientAddressRule, ProxyEnv, readProxyEnv } from "./env.ts";

/**
 * The proxy's settings, some of them required here: a worker has no API or page server beside it
 * on known ports, and it always reaches them across the network, so without the shared secret the
 * API would see every student as the worker and count them all in one rate-limit bucket.
 */
const WorkerEnv = ProxyEnv.extend({
  PUBLIC_ORIGIN: z.url(
    requiredOnAWorker("the address students use, such as https://portal.college.edu.ng."),
  ),
  API_URL: z.url(requiredOnAWorker("where the worker reaches the college API.")),
  PAGES_URL: z.url(requiredOnAWorker("where the worker reaches the page server.")),
  PROXY_SHARED_SECRET: z
    .string(requiredOnAWorker("the value the API and page servers have (decision 122)."))
    .pipe(ProxyEnv.shape.PROXY_SHARED_SECRET.unwrap()),
});

/** A missing binding's message; a wrong one keeps zod's own ("Invalid URL"). */
function requiredOnAWorker(what: string) {
  return {
    error: (issue: { input?: unknown }) =>
      issue.input === undefined ? `Required on a worker: ${what}` : undefined,
  };
}

type Proxy = ReturnType<typeof createProxy>;

/** Variables and secrets as the runtime hands them over; wrangler passes a numeric var as a number. */
export type WorkerBindings = Record<string, unknown>;

/** The proxy these bindings describe, or throws naming each bad or missing binding. */
export function proxyFromBindings(bindings: WorkerBindings): Proxy {
  const source: Record<string, string> = {};
  for (const [name, value] of Object.entries(bindings)) {
    if (typeof value === "string" || typeof value === "number") source[name] = String(value);
  }
  const env = parseEnv(WorkerEnv, source);
  // The rules across settings (a header and hops together) are the Node proxy's too.
  readProxyEnv(source);
  // A worker sees no socket: without a rule every student would be "unknown", one rate-limit bucket.
  if (!env.CLIENT_ADDRESS_HEADER && env.TRUSTED_PROXY_HOPS === 0) {
    throw new Error(
      "Invalid configuration:\n  - CLIENT_ADDRESS_HEADER, TRUSTED_PROXY_HOPS: a worker has no socket address to " +
        "fall back on. On Cloudflare set CLIENT_ADDRESS_HEADER=cf-connecting-ip; behind load balancers " +
        "that append to x-forwarded-for, set TRUSTED_PROXY_HOPS to how many there are.\n" +
        'See README, "The proxy on workerd or Cloudflare".',
    );
  }
  return createProxy({
    publicOrigin: env.PUBLIC_ORIGIN,
    apiUrl: env.API_URL,
    pagesUrl: env.PAGES_URL,
    clientAddress: clientAddressRule(env),
    proxySecret: env.PROXY_SHARED_SECRET,
  });
}

// The runtime hands every request of an isolate the same bindings object: build once for it.
const built = new WeakMap<WorkerBindings, Proxy | Error>();

function proxyFor(bindings: WorkerBindings): Proxy | Error {
  let proxy = built.get(bindings);
  if (!proxy) {
    try {
      proxy = proxyFromBindings(bindings);
    } catch (error) {
      proxy = error instanceof Error ? error : new Error(String(error));
    }
    built.set(bindings, proxy);
  }
  return proxy;
}

export default {
  async fetch(
    request: Request,
    bindings: WorkerBindings,
    context: ExecutionContext,
  ): Promise<Response> {
    const proxy = proxyFor(bindings);
    if (proxy instanceof Error) {
      // The operator reads why in the worker's log; students and probes get a plain refusal.
      console.error(JSON.stringify({ level: "error", name: "proxy", message: proxy.message }));
      return new Response("The portal is not answering right now. Please try again in a minute.", {
        status: 503,
        headers: { "content-type": "text/plain; charset=UTF-8", "cache-control": "no-store" },
      });
    }
    // No bindings for the app: on Node they carry the socket, and a worker has none to give.
    return alreadyEncoded(await proxy.fetch(request, {}, context));
  },
};

/**
 * The proxy compresses what it sends (hono's compress, as on Node). The runtime reads a
 * Content-Encoding header as an order to compress the body itself, and would send it gzipped
 * twice, unless the response says its body is encoded already.
 */
function alreadyEncoded(response: Response): Response {
  if (!response.headers.has("content-encoding")) return response;
  return new Response(response.body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
    encodeBody: "manual",
  } as ResponseInit);
}
