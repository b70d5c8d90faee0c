import { createProxy, type ProxyOptions } from "./app.ts";

type Answer = (request: Request) => Response | Promise<Response>;

/**
 * Tests only: the proxy in front of a stand-in for both upstreams that records every request it
 * relays and answers with `answer` (by default an empty JSON object).
 */
export function recordingProxy(
  publicOrigin = "http://localhost:4321",
  answer: Answer = () => Response.json({}),
) {
  const sent: Request[] = [];
  const app = createProxy({
    publicOrigin,
    apiUrl: "http://api.internal",
    pagesUrl: "http://pages.internal",
    fetch: async (request) => {
      sent.push(request);
      return answer(request);
    },
  });
  return { app, sent };
}

type Upstream = { request: (path: string, init: Request) => Response | Promise<Response> };

/**
 * Tests only: the proxy in front of the real API of a test harness and a stand-in page server,
 * reached by function calls, as one serving process has them. `api` is asked for at each request:
 * a test file makes its proxy before its harness starts.
 */
export function proxyBeforeApi(
  api: () => { app: Upstream },
  pages: Upstream,
  options: Omit<ProxyOptions, "apiUrl" | "pagesUrl" | "fetch">,
) {
  return createProxy({
    ...options,
    apiUrl: "http://api.internal",
    pagesUrl: "http://pages.internal",
    fetch: async (request) => {
      const url = new URL(request.url);
      const target = url.host === "api.internal" ? api().app : pages;
      return target.request(url.pathname + url.search, request);
    },
  });
}
