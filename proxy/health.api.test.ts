import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Hono } from "hono";
import { createApi } from "../server/app.ts";
import { createApiHarness, type ApiHarness } from "../server/testing/api-harness.test-kit.ts";
import { openTestDatabase } from "../server/testing/test-database.test-kit.ts";
import { createProxy } from "./app.ts";
import type { Fetch } from "./relay.ts";

const PUBLIC_ORIGIN = "http://localhost:4321";
let api: ApiHarness;
const pagesSeen: string[] = [];
const pages = new Hono().all("*", (c) => {
  pagesSeen.push(new URL(c.req.url).pathname);
  return c.redirect("/login");
});

beforeAll(async () => {
  api = await createApiHarness();
});
afterAll(() => api.close());

/** The proxy in front of `apiFetch` (the real API unless a test replaces it), counting upstream calls. */
function proxyWith(apiFetch?: Fetch) {
  const calls: string[] = [];
  const app = createProxy({
    publicOrigin: PUBLIC_ORIGIN,
    apiUrl: "http://api.internal",
    pagesUrl: "http://pages.internal",
    fetch: async (request) => {
      const url = new URL(request.url);
      calls.push(url.host + url.pathname);
      if (url.host === "pages.internal") return pages.request(url.pathname + url.search, request);
      return apiFetch ? apiFetch(request) : api.app.request(url.pathname + url.search, request);
    },
  });
  return { app, calls };
}

describe("the proxy's /healthz", () => {
  it("answers ok itself, uncached, asking neither the API nor the pages", async () => {
    const { app, calls } = proxyWith();
    const response = await app.request(`${PUBLIC_ORIGIN}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ok" });
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(calls).toEqual([]);
  });

  it("answers a probe addressed to the instance, not the public name, without a redirect", async () => {
    const { app } = proxyWith();
    for (const path of ["/healthz", "/readyz"]) {
      const response = await app.request(`http://10.0.0.7:4321${path}`);
      expect(response.status).toBe(200);
      expect(response.headers.get("location")).toBeNull();
    }
  });

  it("refuses methods other than GET and HEAD", async () => {
    const { app, calls } = proxyWith();
    const head = await app.request(`${PUBLIC_ORIGIN}/healthz`, { method: "HEAD" });
    expect(head.status).toBe(200);
    const post = await app.request(`${PUBLIC_ORIGIN}/readyz`, {
      method: "POST",
      headers: { origin: PUBLIC_ORIGIN },
    });
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET, HEAD");
    expect(calls).toEqual([]);
  });
});

describe("the proxy's /readyz", () => {
  it("passes on the API's 'ready', uncached; the pages never see the probe", async () => {
    const { app, calls } = proxyWith();
    const response = await app.request(`${PUBLIC_ORIGIN}/readyz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ready" });
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(calls).toEqual(["api.internal/readyz"]);
    expect(pagesSeen).toEqual([]);
  });

  it("passes on the API's 'not ready' and its reason", async () => {
    const database = await openTestDatabase();
    await database.close();
    const brokenApi = createApi({ ...api.deps, db: database.db });
    const { app } = proxyWith(async (request) => brokenApi.fetch(request));
    const response = await app.request(`${PUBLIC_ORIGIN}/readyz`);
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({
      status: "not ready",
      reason: "the database is unreachable",
    });
    expect(response.headers.get("cache-control")).toBe("no-store");
  });

  it("is not ready when the API does not answer", async () => {
    const { app } = proxyWith(() => Promise.reject(new TypeError("fetch failed")));
    const response = await app.request(`${PUBLIC_ORIGIN}/readyz`);
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({
      status: "not ready",
      reason: "the API is not answering",
    });
  });

  it("is not ready when something else answers in the API's place", async () => {
    const { app } = proxyWith(
      async () =>
        new Response("<h1>Bad gateway</h1>", {
          status: 502,
          headers: { "content-type": "text/html" },
        }),
    );
    const response = await app.request(`${PUBLIC_ORIGIN}/readyz`);
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ status: "not ready", reason: "the API answered 502" });
  });
});
