import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { brotliCompressSync, deflateSync, gzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { decodedText, StepFailed, VirtualBrowser } from "./browser.ts";
import { StepRecorder } from "./stats.ts";
import { waitingPageHtml } from "./waiting-page.test-kit.ts";

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers
      .splice(0)
      .map((server) => new Promise((resolve) => server.close(resolve).closeAllConnections())),
  );
});

/** A portal that is busy for the first `busyTimes` requests, then answers the page. */
async function portalBusyFor(busyTimes: number, retryAfter: string | null = "0") {
  let seen = 0;
  const server = createServer((_request, response) => {
    seen += 1;
    if (seen <= busyTimes) {
      response.writeHead(503, retryAfter === null ? {} : { "retry-after": retryAfter }).end("busy");
      return;
    }
    response.writeHead(200, { "content-type": "text/html" }).end("<h1>Dashboard</h1>");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  servers.push(server);
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    requests: () => seen,
  };
}

describe("a virtual student's browser when the portal is busy", () => {
  it("comes back after the Retry-After and records the step once, with the busy answers counted apart", async () => {
    const portal = await portalBusyFor(2);
    const recorder = new StepRecorder();
    const browser = new VirtualBrowser("127.0.0.1", recorder, 5_000);
    const answer = await browser.navigate("dashboard", portal.url, {
      status: 200,
      marker: "Dashboard",
    });
    await browser.close();

    expect(answer.status).toBe(200);
    expect(portal.requests()).toBe(3);
    expect(recorder.summaries()).toMatchObject([
      { step: "dashboard", count: 1, errors: 0, busy: 2 },
    ]);
    expect(recorder.failures).toBe(0);
  });

  it("counts a 503 without Retry-After as the failure it is", async () => {
    const portal = await portalBusyFor(1, null);
    const recorder = new StepRecorder();
    const browser = new VirtualBrowser("127.0.0.1", recorder, 5_000);
    await expect(browser.navigate("dashboard", portal.url, { status: 200 })).rejects.toBeInstanceOf(
      StepFailed,
    );
    await browser.close();
    expect(recorder.summaries()).toMatchObject([
      { step: "dashboard", count: 1, errors: 1, busy: 0 },
    ]);
  });

  it("gives up after twenty busy answers in a row, as the sign-in form does", async () => {
    const portal = await portalBusyFor(100);
    const recorder = new StepRecorder();
    const browser = new VirtualBrowser("127.0.0.1", recorder, 5_000);
    await expect(browser.navigate("dashboard", portal.url, { status: 200 })).rejects.toThrow(
      "dashboard: HTTP 503",
    );
    await browser.close();
    expect(portal.requests()).toBe(21);
    expect(recorder.summaries()).toMatchObject([
      { step: "dashboard", count: 1, errors: 1, busy: 20 },
    ]);
  });
});

describe("a virtual student's browser reading answers", () => {
  const page = "<h1>Dashboard</h1> ₦45,000.00";
  it.each([
    ["gzip", gzipSync(page)],
    ["br", brotliCompressSync(page)],
    ["deflate", deflateSync(page)],
    [null, Buffer.from(page)],
  ])("reads a %s answer as its text", (encoding, body) => {
    expect(decodedText(body, encoding)).toBe(page);
  });

  it("refuses an encoding it did not ask for, rather than check its bytes as text", () => {
    expect(() => decodedText(Buffer.from(page), "zstd")).toThrow("zstd");
  });

  it("reads a gzipped page from the wire and finds its marker", async () => {
    const server = createServer((_request, response) => {
      response
        .writeHead(200, { "content-type": "text/html", "content-encoding": "gzip" })
        .end(gzipSync(page));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    servers.push(server);
    const browser = new VirtualBrowser("127.0.0.1", new StepRecorder(), 5_000);
    const answer = await browser.navigate(
      "dashboard",
      `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
      {
        status: 200,
        marker: "₦45,000.00",
      },
    );
    await browser.close();
    expect(answer.body).toBe(page);
  });
});

/** A portal whose process dies under the first `drops` requests (the socket closed unanswered). */
async function portalDroppingFirst(drops: number) {
  let seen = 0;
  const server = createServer((request, response) => {
    seen += 1;
    if (seen <= drops) {
      request.socket.destroy();
      return;
    }
    response.writeHead(502, { "content-type": "text/html" }).end("<p>Remita is down</p>");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  servers.push(server);
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    requests: () => seen,
  };
}

describe("a virtual student's browser under faults", () => {
  it("records a refusal the student will press again as tried again, not as an error, and still throws it", async () => {
    const portal = await portalDroppingFirst(0);
    const recorder = new StepRecorder();
    const browser = new VirtualBrowser("127.0.0.1", recorder, 5_000);
    await expect(
      browser.navigate("Pay with Remita", portal.url, { status: 303, retryable: true }),
    ).rejects.toBeInstanceOf(StepFailed);
    await browser.close();
    expect(recorder.failures).toBe(0);
    expect(recorder.retryReasons()).toEqual([["Pay with Remita: HTTP 502", 1]]);
    expect(recorder.summaries()).toMatchObject([{ count: 1, errors: 0, retried: 1 }]);
  });

  it("sends a request whose connection dropped once more when told to, and only once", async () => {
    const portal = await portalDroppingFirst(1);
    const recorder = new StepRecorder();
    const browser = new VirtualBrowser("127.0.0.1", recorder, 5_000, { resendDropped: true });
    const answer = await browser.navigate("dashboard", portal.url, { status: 502 });
    expect(answer.status).toBe(502);
    expect(portal.requests()).toBe(2);
    expect(recorder.failures).toBe(0);
    expect(recorder.retryReasons()).toEqual([["dashboard: UND_ERR_SOCKET, sent again", 1]]);

    const twice = await portalDroppingFirst(2);
    await expect(browser.navigate("dashboard", twice.url, { status: 502 })).rejects.toThrow(
      "dashboard: UND_ERR_SOCKET",
    );
    expect(recorder.failures).toBe(1);
    await browser.close();
  });

  it("counts a dropped connection as the failure it is without faults", async () => {
    const portal = await portalDroppingFirst(1);
    const recorder = new StepRecorder();
    const browser = new VirtualBrowser("127.0.0.1", recorder, 5_000);
    await expect(browser.navigate("dashboard", portal.url, { status: 502 })).rejects.toThrow(
      StepFailed,
    );
    await browser.close();
    expect(recorder.failures).toBe(1);
    expect(portal.requests()).toBe(1);
  });
});

type Turn = {
  status: number;
  headers?: Record<string, string | string[]>;
  body: string;
};
type Seen = { method: string; url: string; cookie: string; body: string };

/** A stand-in portal answering each request with the next of `turns`, noting what it was sent. */
async function portalAnswering(turns: Turn[]) {
  const seen: Seen[] = [];
  const server = createServer((request, response) => {
    let body = "";
    request.setEncoding("utf8").on("data", (chunk: string) => (body += chunk));
    request.on("end", () => {
      seen.push({
        method: request.method ?? "",
        url: request.url ?? "",
        cookie: request.headers.cookie ?? "",
        body,
      });
      const turn = turns[seen.length - 1] ?? { status: 500, body: "no more turns" };
      response.writeHead(turn.status, turn.headers ?? {}).end(turn.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  servers.push(server);
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

/** The waiting page as the contract of issue 34 has it, with its headers and the ticket cookie. */
const inLine = (
  place: number,
  waitSeconds: number | null,
  refresh: string,
  ticket: string | null = null,
): Turn => ({
  status: 503,
  headers: {
    "content-type": "text/html; charset=utf-8",
    "retry-after": refresh.split(";")[0]!,
    "cache-control": "no-store",
    ...(ticket ? { "set-cookie": `portal_line=${ticket}; Path=/; HttpOnly; SameSite=Lax` } : {}),
  },
  body: waitingPageHtml({ place, waitSeconds, refresh }),
});

const signInPage: Turn = {
  status: 200,
  headers: {
    "content-type": "text/html",
    "set-cookie": ["portal_pass=p.7; Path=/; HttpOnly", "portal_line=; Path=/; Max-Age=0"],
  },
  body: '<form><input name="username"></form>',
};

describe("a virtual student's browser in the line at the door", () => {
  it("follows the waiting page's refresh with its ticket until let in, timing the step from the request let in", async () => {
    const portal = await portalAnswering([
      inLine(2, null, "1; url=/login", "t.7.100.sig"),
      inLine(1, 1, "1; url=/login"),
      signInPage,
    ]);
    const recorder = new StepRecorder();
    const browser = new VirtualBrowser("127.0.0.1", recorder, 5_000);
    const answer = await browser.navigate("login page", `${portal.origin}/login`, {
      status: 200,
      marker: 'name="username"',
    });
    const record = browser.lineRecord();
    await browser.close();

    expect(answer.status).toBe(200);
    expect(portal.seen.map((request) => [request.method, request.url, request.cookie])).toEqual([
      ["GET", "/login", ""],
      ["GET", "/login", "portal_line=t.7.100.sig"],
      ["GET", "/login", "portal_line=t.7.100.sig"],
    ]);
    expect(recorder.failures).toBe(0);
    expect(recorder.busyAnswers).toBe(0);
    expect(recorder.waitingPages).toBe(2);
    expect(recorder.inLineNow).toBe(0);
    const [step] = recorder.summaries();
    expect(step).toMatchObject({ step: "login page", count: 1, errors: 0, busy: 0, waiting: 2 });
    // Two seconds in line, none of them in the step's time.
    expect(step!.max).toBeLessThan(900);
    expect(record).toMatchObject({
      timesInLine: 1,
      admitted: true,
      lost: null,
      line: { firstPageEstimateSeconds: null, maxPlace: 2, lastPlace: 1, pages: 2 },
    });
    const line = record.line!;
    expect(line.firstEstimate!.seconds).toBe(1);
    expect(line.firstEstimate!.shownAt - line.firstPageAt).toBeGreaterThanOrEqual(950);
    expect(line.admittedAt! - line.firstPageAt).toBeGreaterThanOrEqual(1_950);
  });

  it("waits as long as the line takes: far more waiting pages than busy answers it would give up after", async () => {
    const places = Array.from({ length: 30 }, (_, i) => inLine(30 - i, 30 - i, "0"));
    const portal = await portalAnswering([...places, signInPage]);
    const recorder = new StepRecorder();
    const browser = new VirtualBrowser("127.0.0.1", recorder, 5_000);
    await browser.navigate("login page", `${portal.origin}/login`, { status: 200 });
    await browser.close();
    expect(portal.seen).toHaveLength(31);
    expect(recorder.summaries()).toMatchObject([{ count: 1, errors: 0, busy: 0, waiting: 30 }]);
  });

  it("lands on the sign-in page after a refused form, loading it rather than posting the form again", async () => {
    const portal = await portalAnswering([
      inLine(1, null, "0; url=/login?next=%2Fdashboard", "t.8.100.sig"),
      signInPage,
    ]);
    const browser = new VirtualBrowser("127.0.0.1", new StepRecorder(), 5_000);
    const answer = await browser.navigate(
      "sign in without JavaScript",
      `${portal.origin}/login`,
      { status: 200, marker: 'name="username"' },
      { method: "POST", body: new URLSearchParams({ username: "0803", password: "secret" }) },
    );
    await browser.close();
    expect(answer.url).toBe(`${portal.origin}/login?next=%2Fdashboard`);
    expect(portal.seen.map((request) => [request.method, request.url, request.body])).toEqual([
      ["POST", "/login", "username=0803&password=secret"],
      ["GET", "/login?next=%2Fdashboard", ""],
    ]);
  });

  it("sends a JSON sign-in refused for the line again after its Retry-After, apart from busy answers", async () => {
    const refused = (ticket: string | null): Turn => ({
      status: 503,
      headers: {
        "content-type": "application/json",
        "retry-after": "0",
        ...(ticket ? { "set-cookie": `portal_line=${ticket}; Path=/` } : {}),
      },
      body: JSON.stringify({
        status: "error",
        message: "You are in line",
        error: { message: "You are in line" },
      }),
    });
    const portal = await portalAnswering([
      { status: 200, body: "<h1>Sign in</h1>" },
      refused("t.9.100.sig"),
      refused(null),
      { status: 200, headers: { "content-type": "application/json" }, body: '{"data":{"id":9}}' },
    ]);
    const recorder = new StepRecorder();
    const browser = new VirtualBrowser("127.0.0.1", recorder, 5_000);
    await browser.navigate("login page", `${portal.origin}/login`, { status: 200 });
    const signedIn = await browser.api<{ data: { id: number } }>(
      "sign in",
      "/api/student/uniben/login",
      { status: 200 },
      { username: "0803", password: "secret" },
    );
    await browser.close();
    expect(signedIn.data.id).toBe(9);
    expect(portal.seen.slice(1).map((request) => [request.method, request.cookie])).toEqual([
      ["POST", ""],
      ["POST", "portal_line=t.9.100.sig"],
      ["POST", "portal_line=t.9.100.sig"],
    ]);
    expect(recorder.summaries()[1]).toMatchObject({
      step: "sign in",
      count: 1,
      errors: 0,
      busy: 0,
      waiting: 2,
    });
    expect(browser.lineRecord()).toMatchObject({ timesInLine: 1, line: { maxPlace: null } });
  });

  it("counts a student the line sent to the back as lost: an error, and the visit stops", async () => {
    const portal = await portalAnswering([
      inLine(5, 20, "0", "t.5.100.sig"),
      inLine(4, 16, "0"),
      inLine(9, 40, "0", "t.14.103.sig"),
    ]);
    const recorder = new StepRecorder();
    const browser = new VirtualBrowser("127.0.0.1", recorder, 5_000);
    await expect(
      browser.navigate("login page", `${portal.origin}/login`, { status: 200 }),
    ).rejects.toThrow("login page: lost by the line: place 4, then 9 on a new ticket");
    expect(recorder.failures).toBe(1);
    expect(recorder.inLineNow).toBe(0);
    expect(browser.lineRecord()).toMatchObject({
      admitted: false,
      lost: "lost by the line: place 4, then 9 on a new ticket",
      line: { admittedAt: null },
    });
    await browser.close();
  });

  it("counts a place that rises on the same ticket, by however little, as the line losing the student", async () => {
    const portal = await portalAnswering([
      inLine(20, 20, "1", "t.5.100.0.sig"),
      inLine(17, 17, "1"),
      inLine(18, 16, "0"),
    ]);
    const recorder = new StepRecorder();
    const browser = new VirtualBrowser("127.0.0.1", recorder, 5_000);
    await expect(
      browser.navigate("login page", `${portal.origin}/login`, { status: 200 }),
    ).rejects.toThrow("lost by the line: place 17, then 18");
    expect(recorder.failures).toBe(1);
    await browser.close();
  });

  it("counts a waiting page it cannot follow as an error", async () => {
    const portal = await portalAnswering([
      { status: 503, headers: { "retry-after": "3" }, body: '<main id="waiting-line">' },
    ]);
    const recorder = new StepRecorder();
    const browser = new VirtualBrowser("127.0.0.1", recorder, 5_000);
    await expect(
      browser.navigate("login page", `${portal.origin}/login`, { status: 200 }),
    ).rejects.toThrow("login page: waiting page without a place");
    await browser.close();
    expect(recorder.failures).toBe(1);
    expect(recorder.busyAnswers).toBe(0);
  });
});

describe("a virtual student's browser and the site stylesheet (decision 203)", () => {
  const css = ":root{--brand:#0b6e4f}body{margin:0}";
  const page = (link: string) => ({
    status: 200,
    headers: { "content-type": "text/html" },
    body: `<html><head>${link.startsWith('<link rel="stylesheet"') ? link : "<style>x{}</style>"}</head><body><h1>Dashboard</h1>${link.startsWith('<link rel="prefetch"') ? link : ""}</body></html>`,
  });
  const prefetch = '<link rel="prefetch" href="/site.css?v=abc123" as="style">';
  const stylesheet = '<link rel="stylesheet" href="/site.css?v=abc123">';
  const file: Turn = {
    status: 200,
    headers: {
      "content-type": "text/css",
      "cache-control": "public, max-age=31536000, immutable",
      "set-cookie": "site_css=abc123; Path=/; Max-Age=2592000; HttpOnly; SameSite=Lax",
    },
    body: css,
  };

  it("fetches the prefetched file once, after the page that asks for it, as a step of its own, and keeps its cookie", async () => {
    const portal = await portalAnswering([page(prefetch), file, page(stylesheet), page(prefetch)]);
    const recorder = new StepRecorder();
    const browser = new VirtualBrowser("127.0.0.1", recorder, 5_000);
    await browser.navigate("login page", `${portal.origin}/login`, { status: 200 });
    await browser.navigate("dashboard", `${portal.origin}/`, { status: 200 });
    // A page that asks again for an address the cache holds: no request.
    await browser.navigate("payment page", `${portal.origin}/payment`, { status: 200 });
    await browser.close();

    expect(portal.seen.map((request) => request.url)).toEqual([
      "/login",
      "/site.css?v=abc123",
      "/",
      "/payment",
    ]);
    expect(portal.seen[2]!.cookie).toBe("site_css=abc123");
    expect(recorder.summaries().map((summary) => [summary.step, summary.count])).toEqual([
      ["login page", 1],
      ["site stylesheet", 1],
      ["dashboard", 1],
      ["payment page", 1],
    ]);
  });

  it("fetches a linked stylesheet its cache does not hold; a failed fetch is recorded, and the student goes on", async () => {
    const portal = await portalAnswering([
      page(stylesheet),
      { status: 500, body: "down" },
      page(prefetch),
      file,
    ]);
    const recorder = new StepRecorder();
    const browser = new VirtualBrowser("127.0.0.1", recorder, 5_000);
    await browser.navigate("dashboard", `${portal.origin}/`, { status: 200 });
    await browser.navigate("payment page", `${portal.origin}/payment`, { status: 200 });
    await browser.close();

    expect(portal.seen.map((request) => request.url)).toEqual([
      "/",
      "/site.css?v=abc123",
      "/payment",
      "/site.css?v=abc123",
    ]);
    expect(recorder.summaries()).toMatchObject([
      { step: "dashboard", count: 1, errors: 0 },
      { step: "site stylesheet", count: 2, errors: 1 },
      { step: "payment page", count: 1, errors: 0 },
    ]);
  });
});
