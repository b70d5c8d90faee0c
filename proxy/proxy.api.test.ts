import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Hono } from "hono";
import {
  createApiHarness,
  TEST_PROXY_SECRET,
  type ApiHarness,
} from "../server/testing/api-harness.test-kit.ts";
import { PROXY_SECRET_HEADER } from "../common/http/proxy-secret.ts";
import { createProxy, type ProxyOptions } from "./app.ts";
import { proxyBeforeApi } from "./recording-proxy.test-kit.ts";

// The real API behind the proxy; a stand-in page server that reports what reached it.
let api: ApiHarness;
const pagesSeen: Request[] = [];
const pages = new Hono().all("*", (c) => {
  pagesSeen.push(c.req.raw);
  return c.html(`<p>page ${new URL(c.req.url).pathname}</p>`);
});

/** The proxy, called at its public origin (other hosts are sent there first). */
function proxyFor(publicOrigin: string) {
  const app = proxyBeforeApi(() => api, pages, { publicOrigin, proxySecret: TEST_PROXY_SECRET });
  return {
    request: (path: string, init?: RequestInit, env?: object) =>
      app.request(`${publicOrigin}${path}`, init, env),
  };
}
const proxy = proxyFor("http://localhost:4321");
const ORIGIN = "http://localhost:4321";

beforeAll(async () => {
  api = await createApiHarness();
  await api.createStudent({ phone: "08035550000", password: "proxy-pass-1" });
});
afterAll(() => api.close());

const jsonLogin = (body: unknown, headers: Record<string, string> = {}) =>
  proxy.request("/api/student/uniben/login", {
    method: "POST",
    headers: { "content-type": "application/json", origin: ORIGIN, ...headers },
    body: JSON.stringify(body),
  });

const sessionCookie = (response: Response) => {
  const header = response.headers.get("set-cookie") ?? "";
  return header.split(";")[0]!;
};

describe("sign-in through the proxy", () => {
  it("keeps the token in an HttpOnly cookie and gives the page only the student", async () => {
    const response = await jsonLogin({ username: "08035550000", password: "proxy-pass-1" });
    expect(response.status).toBe(200);
    const setCookie = response.headers.get("set-cookie")!;
    expect(setCookie).toMatch(/^portal_session=[A-Za-z0-9_-]{40,};/);
    expect(setCookie).toContain("HttpOnly");
    expect(setCookie).toContain("SameSite=Lax");
    const body = await response.json();
    expect(body.data.tokens.access).toBeUndefined();
    expect(body.data.tokens.student.phone).toBe("08035550000");
    expect(JSON.stringify(body)).not.toContain(setCookie.split(";")[0]!.split("=")[1]!);
  });

  it("leaves a one-time 'signed in' flash for the next page, with and without JavaScript", async () => {
    const flash = /portal_flash=signed-in; Max-Age=60; Path=\/; HttpOnly; SameSite=Lax/;
    const json = await jsonLogin({ username: "08035550000", password: "proxy-pass-1" });
    expect(json.headers.getSetCookie().some((cookie) => flash.test(cookie))).toBe(true);
    const form = await proxy.request("/login", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: ORIGIN },
      body: new URLSearchParams({ username: "08035550000", password: "proxy-pass-1" }).toString(),
    });
    expect(form.headers.getSetCookie().some((cookie) => flash.test(cookie))).toBe(true);
  });

  it("relays a refusal as it is and sets no cookie", async () => {
    const response = await jsonLogin({ username: "08035550000", password: "wrong" });
    expect(response.status).toBe(401);
    expect(response.headers.get("set-cookie")).toBeNull();
  });

  it("handles the plain form: 303 to a same-site next, or back to sign-in with a reason", async () => {
    const form = (fields: Record<string, string>) =>
      proxy.request("/login", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", origin: ORIGIN },
        body: new URLSearchParams(fields).toString(),
      });
    const ok = await form({ username: "08035550000", password: "proxy-pass-1", next: "/payment" });
    expect(ok.status).toBe(303);
    expect(ok.headers.get("location")).toBe("/payment");
    expect(ok.headers.get("set-cookie")).toContain("HttpOnly");

    const offSite = await form({
      username: "08035550000",
      password: "proxy-pass-1",
      next: "//evil.example/x",
    });
    expect(offSite.headers.get("location")).toBe("/");

    const wrong = await form({ username: "08035550000", password: "nope", next: "/payment" });
    expect(wrong.status).toBe(303);
    expect(wrong.headers.get("location")).toBe("/login?error=wrong&next=%2Fpayment");
    // No session: the only cookie is the typed phone number for the form (below).
    expect(wrong.headers.getSetCookie().map((cookie) => cookie.split("=")[0])).toEqual([
      "portal_typed_phone",
    ]);

    const empty = await form({});
    expect(empty.headers.get("location")).toBe("/login?error=missing");
  });

  it("hands the typed phone number, never the password, back to the sign-in form after a plain post fails", async () => {
    const form = (fields: Record<string, string>) =>
      proxy.request("/login", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", origin: ORIGIN },
        body: new URLSearchParams(fields).toString(),
      });
    const wrong = await form({ username: "0803 555 0000", password: "not-the-password" });
    expect(wrong.headers.get("location")).toBe("/login?error=wrong");
    const cookies = wrong.headers.getSetCookie();
    expect(cookies).toEqual([
      "portal_typed_phone=0803%20555%200000; Max-Age=60; Path=/login; HttpOnly; SameSite=Lax",
    ]);
    expect(cookies.join()).not.toContain("not-the-password");
    // Not in the address either, where history and logs would keep it.
    expect(wrong.headers.get("location")).not.toContain("555");

    const planted = await form({ username: '0803"><script>alert(1)</script>', password: "x" });
    expect(planted.headers.getSetCookie()).toEqual([]);
  });
});

describe("the /api relay", () => {
  it("turns the cookie into a bearer token and never forwards the cookie", async () => {
    const cookie = sessionCookie(
      await jsonLogin({ username: "08035550000", password: "proxy-pass-1" }),
    );
    const response = await proxy.request("/api/student/me", { headers: { cookie } });
    expect(response.status).toBe(200);
    expect((await response.json()).data.phone).toBe("08035550000");
  });

  it("clears the cookie when the API answers 401", async () => {
    const response = await proxy.request("/api/student/me", {
      headers: { cookie: "portal_session=abcdefghijklmnopqrstuvwxyz0123456789" },
    });
    expect(response.status).toBe(401);
    expect(response.headers.get("set-cookie")).toMatch(/^portal_session=; Path=\/; Max-Age=0/);
  });

  it.each([
    ["another origin", { origin: "https://evil.example" }],
    ["a cross-site fetch without Origin", { "sec-fetch-site": "cross-site" }],
  ])("refuses a state-changing call from %s before it reaches the API", async (_case, headers) => {
    const cookie = sessionCookie(
      await jsonLogin({ username: "08035550000", password: "proxy-pass-1" }),
    );
    const response = await proxy.request("/api/student/logout", {
      method: "POST",
      headers: { cookie, ...headers },
    });
    expect(response.status).toBe(403);
    // The session survived: the logout never reached the API.
    expect((await proxy.request("/api/student/me", { headers: { cookie } })).status).toBe(200);
  });

  it("refuses a cross-site sign-in form post", async () => {
    const response = await proxy.request("/login", {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        origin: "https://evil.example",
      },
      body: "username=08035550000&password=proxy-pass-1",
    });
    expect(response.status).toBe(403);
    expect(response.headers.get("set-cookie")).toBeNull();
  });
});

describe("sign-out", () => {
  it("revokes the session on the API and clears the cookie", async () => {
    const cookie = sessionCookie(
      await jsonLogin({ username: "08035550000", password: "proxy-pass-1" }),
    );
    const response = await proxy.request("/logout", {
      method: "POST",
      headers: { cookie, origin: ORIGIN },
    });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/login?signed_out=1");
    expect(response.headers.get("set-cookie")).toContain("Max-Age=0");
    expect((await proxy.request("/api/student/me", { headers: { cookie } })).status).toBe(401);
  });
});

describe("pages and headers", () => {
  it("sends other paths to the page server with the cookie, and sets security headers", async () => {
    const response = await proxy.request("/course-reg?x=1", {
      headers: { cookie: "portal_session=abc" },
    });
    expect(await response.text()).toContain("page /course-reg");
    expect(pagesSeen.at(-1)?.headers.get("cookie")).toBe("portal_session=abc");
    expect(response.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("uses a Secure __Host- cookie when served over https", async () => {
    const secure = proxyFor("https://portal.college.example");
    const response = await secure.request("/api/student/uniben/login", {
      method: "POST",
      headers: { "content-type": "application/json", origin: "https://portal.college.example" },
      body: JSON.stringify({ username: "08035550000", password: "proxy-pass-1" }),
    });
    const setCookie = response.headers.get("set-cookie")!;
    expect(setCookie).toMatch(/^__Host-portal_session=/);
    expect(setCookie).toContain("Secure");
    expect(setCookie).toContain("Path=/");

    const cookie = setCookie.split(";")[0]!;
    const logout = await secure.request("/logout", {
      method: "POST",
      headers: { cookie, origin: "https://portal.college.example" },
    });
    expect(logout.headers.get("set-cookie")).toMatch(/^__Host-portal_session=; Max-Age=0/);
    // Over https a plain-named cookie (one a sibling subdomain could plant) is not a session.
    const planted = cookie.replace("__Host-portal_session", "portal_session");
    expect((await secure.request("/api/student/me", { headers: { cookie: planted } })).status).toBe(
      401,
    );
  });
});

describe("upstream addresses", () => {
  // A proxy that records where it sends each request and what it says about the client.
  function recordingProxy(options: Pick<ProxyOptions, "clientAddress" | "proxySecret"> = {}) {
    const sent: Request[] = [];
    const proxy = createProxy({
      ...options,
      publicOrigin: ORIGIN,
      apiUrl: "http://api.internal",
      pagesUrl: "http://pages.internal",
      fetch: async (request) => {
        sent.push(request);
        return new Response("{}", { headers: { "content-type": "application/json" } });
      },
    });
    return { proxy, sent };
  }

  it.each([
    "/api//evil.example/steal",
    "/api/\\evil.example/steal",
    "/api/..//evil.example/steal",
    "//evil.example/steal",
  ])("keeps %s on our own hosts, so the bearer token never leaves them", async (path) => {
    const { proxy, sent } = recordingProxy();
    await proxy.request(`${ORIGIN}${path}`, {
      headers: { cookie: `portal_session=${"A".repeat(43)}` },
    });
    expect(sent).toHaveLength(1);
    expect(new URL(sent[0]!.url).host).toMatch(/^(api|pages)\.internal$/);
  });

  it("tells the API the socket's address, not a cf-connecting-ip the client made up", async () => {
    const { proxy, sent } = recordingProxy();
    const socket = { incoming: { socket: { remoteAddress: "198.51.100.23" } } };
    await proxy.request(
      `${ORIGIN}/api/student/uniben/login`,
      {
        method: "POST",
        headers: {
          "content-type": "application/json",
          origin: ORIGIN,
          "cf-connecting-ip": "10.9.8.7",
        },
        body: JSON.stringify({ username: "08035550000", password: "nope" }),
      },
      socket,
    );
    await proxy.request(
      `${ORIGIN}/api/student/me`,
      { headers: { "cf-connecting-ip": "10.9.8.6" } },
      socket,
    );
    expect(sent.map((request) => request.headers.get("x-forwarded-for"))).toEqual([
      "198.51.100.23",
      "198.51.100.23",
    ]);
  });

  // Every way the proxy reaches upstream: JSON and form sign-in, a relayed API call, a page,
  // staff sign-in, sign-out.
  async function everyKindOfRequest(
    proxy: ReturnType<typeof createProxy>,
    headers: Record<string, string>,
    env?: object,
  ) {
    const form = {
      "content-type": "application/x-www-form-urlencoded",
      origin: ORIGIN,
      ...headers,
    };
    await proxy.request(
      `${ORIGIN}/api/student/uniben/login`,
      {
        method: "POST",
        headers: { "content-type": "application/json", origin: ORIGIN, ...headers },
        body: JSON.stringify({ username: "08035550000", password: "nope" }),
      },
      env,
    );
    await proxy.request(
      `${ORIGIN}/login`,
      { method: "POST", headers: form, body: "username=08035550000&password=nope" },
      env,
    );
    await proxy.request(`${ORIGIN}/api/student/me`, { headers }, env);
    await proxy.request(`${ORIGIN}/dashboard`, { headers }, env);
    await proxy.request(
      `${ORIGIN}/staff/login`,
      { method: "POST", headers: form, body: "email=a%40college.test&password=nope" },
      env,
    );
    await proxy.request(
      `${ORIGIN}/logout`,
      { method: "POST", headers: { ...form, cookie: `portal_session=${"A".repeat(43)}` } },
      env,
    );
  }

  it("shows the shared secret to the API and the page server, never one the client sent", async () => {
    const { proxy, sent } = recordingProxy({ proxySecret: TEST_PROXY_SECRET });
    await everyKindOfRequest(
      proxy,
      { [PROXY_SECRET_HEADER]: "made-up-by-the-client", "x-forwarded-for": "10.9.8.7" },
      {
        incoming: { socket: { remoteAddress: "198.51.100.23" } },
      },
    );
    expect(sent.map((request) => new URL(request.url).host)).toEqual(
      expect.arrayContaining(["api.internal", "pages.internal"]),
    );
    expect(sent).toHaveLength(6);
    for (const request of sent) {
      expect(request.headers.get(PROXY_SECRET_HEADER), request.url).toBe(TEST_PROXY_SECRET);
      expect(request.headers.get("x-forwarded-for"), request.url).toBe("198.51.100.23");
    }
  });

  it("passes on no secret a client sent when it has none of its own", async () => {
    const { proxy, sent } = recordingProxy();
    await everyKindOfRequest(proxy, { [PROXY_SECRET_HEADER]: TEST_PROXY_SECRET });
    expect(sent).toHaveLength(6);
    for (const request of sent)
      expect(request.headers.get(PROXY_SECRET_HEADER), request.url).toBeNull();
  });

  it("finds the client behind a load balancer, or in a CDN's header, as configured", async () => {
    const socket = { incoming: { socket: { remoteAddress: "10.0.0.2" } } };
    const behindBalancer = recordingProxy({ clientAddress: { trustedHops: 1 } });
    await behindBalancer.proxy.request(
      `${ORIGIN}/api/student/me`,
      { headers: { "x-forwarded-for": "10.6.6.6, 203.0.113.9" } },
      socket,
    );
    expect(behindBalancer.sent[0]!.headers.get("x-forwarded-for")).toBe("203.0.113.9");

    const behindCdn = recordingProxy({ clientAddress: { header: "cf-connecting-ip" } });
    await behindCdn.proxy.request(`${ORIGIN}/api/student/me`, {
      headers: { "cf-connecting-ip": "2001:db8:1:2::7" },
    });
    expect(behindCdn.sent[0]!.headers.get("x-forwarded-for")).toBe("2001:db8:1:2::7");
  });
});

describe("request ids (decision 125)", () => {
  it("the API logs a relayed request under the id the proxy made and returned", async () => {
    const response = await proxy.request("/api/student/me", {
      headers: { "x-request-id": "6f1d2c3b-4a59-4e87-9d6c-5b4a3f2e1d0c" },
    });
    expect(response.status).toBe(401);
    const id = response.headers.get("x-request-id")!;
    expect(id).not.toBe("6f1d2c3b-4a59-4e87-9d6c-5b4a3f2e1d0c");
    const line = api.logger.lines
      .map((text) => JSON.parse(text))
      .findLast((entry) => entry.message === "request");
    expect(line).toMatchObject({ requestId: id, route: "/student/me", status: 401 });
  });
});
