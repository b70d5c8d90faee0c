import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { brotliCompressSync, deflateSync, gzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { decodedText, StepFailed, VirtualBrowser } from "./browser.ts";
import { StepRecorder } from "./stats.ts";

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
