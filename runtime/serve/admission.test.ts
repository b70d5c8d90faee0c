import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createLogger } from "../../server/http/logger.ts";
import { admitInTurn, passesTheLine, type AdmissionLimits } from "./admission.ts";

type Held = { path: string; finish: () => void };

/**
 * A listener that holds every request until the test finishes it, behind admission control, on
 * a real socket: what counts as in flight is the time until the answer is sent.
 */
async function gatedServer(
  limits: AdmissionLimits,
  midVisit?: (request: IncomingMessage) => boolean,
) {
  const held: Held[] = [];
  const started: string[] = [];
  const listener = (request: IncomingMessage, response: ServerResponse) => {
    started.push(request.url!);
    held.push({ path: request.url!, finish: () => response.end(`done ${request.url}`) });
  };
  const server = createServer(
    admitInTurn(listener, limits, createLogger({ name: "test", level: "silent" }), midVisit),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  servers.push(server);
  const port = (server.address() as AddressInfo).port;
  return { held, started, port };
}

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers
      .splice(0)
      .map((server) => new Promise((resolve) => server.close(resolve).closeAllConnections())),
  );
});

type Reply = { status: number; headers: IncomingMessage["headers"]; body: string };

function send(
  port: number,
  path: string,
  options: { method?: string; signal?: AbortSignal; cookie?: string } = {},
) {
  return new Promise<Reply>((resolve, reject) => {
    const headers = options.cookie ? { cookie: options.cookie } : {};
    const outgoing = httpRequest(
      {
        host: "127.0.0.1",
        port,
        path,
        headers,
        method: options.method ?? "GET",
        agent: false,
        signal: options.signal,
      },
      (response) => {
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (chunk) => (body += chunk));
        response.on("end", () =>
          resolve({ status: response.statusCode!, headers: response.headers, body }),
        );
      },
    );
    outgoing.on("error", reject);
    outgoing.end();
  });
}

const until = async (condition: () => boolean) => {
  for (let tries = 0; !condition(); tries += 1) {
    if (tries > 200) throw new Error("condition not reached");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

describe("admission control of the listener students reach", () => {
  it("handles up to the limit at once and lets the others in, in the order they came, as answers go out", async () => {
    const { held, started, port } = await gatedServer({
      inFlight: 2,
      waiting: 10,
      maxWaitMs: 5_000,
    });
    const replies = ["/a", "/b", "/c", "/d"].map((path) => send(port, path));
    await until(() => started.length === 2);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(started).toEqual(["/a", "/b"]);

    held[1]!.finish();
    await until(() => started.length === 3);
    expect(started[2]).toBe("/c");
    held[0]!.finish();
    await until(() => started.length === 4);
    expect(started[3]).toBe("/d");
    held[2]!.finish();
    held[3]!.finish();
    expect((await Promise.all(replies)).map((reply) => reply.body)).toEqual([
      "done /a",
      "done /b",
      "done /c",
      "done /d",
    ]);
  });

  it("turns a page away at once with 503, a time to come back and a page that tries again by itself, when the line is full", async () => {
    const { started, port, held } = await gatedServer({
      inFlight: 1,
      waiting: 1,
      maxWaitMs: 5_000,
    });
    const first = send(port, "/");
    await until(() => started.length === 1);
    const second = send(port, "/payment");
    await new Promise((resolve) => setTimeout(resolve, 50));

    const busy = await send(port, "/course-reg");
    expect(busy.status).toBe(503);
    const seconds = Number(busy.headers["retry-after"]);
    expect(seconds).toBeGreaterThanOrEqual(5);
    expect(seconds).toBeLessThanOrEqual(10);
    expect(busy.headers["cache-control"]).toBe("no-store");
    expect(busy.headers["content-type"]).toMatch(/^text\/html/);
    expect(busy.body).toContain("<h1>The portal is busy</h1>");
    expect(busy.body).toContain("nothing was changed");
    expect(busy.body).toContain(`<meta http-equiv="refresh" content="${seconds}">`);
    expect(busy.body).toContain(`try again by itself in ${seconds} seconds`);
    expect(started).toEqual(["/"]);

    held[0]!.finish();
    await until(() => held.length === 2);
    held[1]!.finish();
    expect((await first).status).toBe(200);
    expect((await second).body).toBe("done /payment");
  });

  it("answers an API call in the API's error shape, and a form post without refreshing (a refresh would not post it)", async () => {
    const { started, port, held } = await gatedServer({
      inFlight: 1,
      waiting: 0,
      maxWaitMs: 5_000,
    });
    const first = send(port, "/");
    await until(() => started.length === 1);

    const api = await send(port, "/api/student/courses/register", { method: "POST" });
    expect(api.status).toBe(503);
    expect(api.headers["content-type"]).toMatch(/^application\/json/);
    const body = JSON.parse(api.body) as {
      status: string;
      message: string;
      error: { message: string };
    };
    expect(body.status).toBe("error");
    expect(body.message).toBe(body.error.message);
    expect(body.message).toMatch(
      /^Many students are using the portal right now.* Please try again in \d+ seconds\.$/,
    );

    const form = await send(port, "/course-reg", { method: "POST" });
    expect(form.status).toBe(503);
    expect(form.body).not.toContain("http-equiv");
    expect(form.body).toContain("go back and send the form again");
    expect(started).toEqual(["/"]);
    held[0]!.finish();
    await first;
  });

  it("turns a request away after it has waited the longest allowed", async () => {
    const { started, port, held } = await gatedServer({ inFlight: 1, waiting: 10, maxWaitMs: 100 });
    const first = send(port, "/");
    await until(() => started.length === 1);
    const waited = await send(port, "/payment");
    expect(waited.status).toBe(503);
    held[0]!.finish();
    await first;
    // The one turned away is not handled later.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(started).toEqual(["/"]);
  });

  it("lets a student who gave up while waiting leave the line: their request is never handled", async () => {
    const { started, port, held } = await gatedServer({
      inFlight: 1,
      waiting: 10,
      maxWaitMs: 5_000,
    });
    const first = send(port, "/");
    await until(() => started.length === 1);
    const giveUp = new AbortController();
    const abandoned = send(port, "/payment", { signal: giveUp.signal }).catch(
      (error: Error) => error.name,
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    giveUp.abort();
    expect(await abandoned).toBe("AbortError");
    await new Promise((resolve) => setTimeout(resolve, 50));
    const next = send(port, "/history/payments");

    held[0]!.finish();
    await until(() => started.length === 2);
    expect(started).toEqual(["/", "/history/payments"]);
    held[1]!.finish();
    await Promise.all([first, next]);
  });

  it("lets probes, Paystack's webhooks and a page's static files past a full line", async () => {
    const { started, port, held } = await gatedServer({
      inFlight: 1,
      waiting: 0,
      maxWaitMs: 5_000,
    });
    const first = send(port, "/");
    await until(() => started.length === 1);
    const passing = [
      send(port, "/healthz"),
      send(port, "/_astro/client.js"),
      send(port, "/api/paystack/webhook", { method: "POST" }),
    ];
    await until(() => started.length === 4);
    for (const hold of held) hold.finish();
    expect((await Promise.all(passing)).map((reply) => reply.status)).toEqual([200, 200, 200]);
    await first;
  });
});

describe("students already signed in go first", () => {
  const signedIn = (request: IncomingMessage) => request.headers.cookie === "portal_session=t";
  const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

  it("lets a signed-in student's request in before newcomers who came earlier", async () => {
    const { started, port, held } = await gatedServer(
      { inFlight: 1, waiting: 10, maxWaitMs: 5_000 },
      signedIn,
    );
    const replies = [send(port, "/")];
    await until(() => started.length === 1);
    replies.push(send(port, "/history/payments"));
    await settle();
    replies.push(send(port, "/payment", { cookie: "portal_session=t" }));
    await settle();

    held[0]!.finish();
    await until(() => started.length === 2);
    expect(started[1]).toBe("/payment");
    held[1]!.finish();
    await until(() => started.length === 3);
    expect(started[2]).toBe("/history/payments");
    held[2]!.finish();
    await Promise.all(replies);
  });

  it("gives a full line's newest newcomer's place to a signed-in student, and turns newcomers away", async () => {
    const { started, port, held } = await gatedServer(
      { inFlight: 1, waiting: 2, maxWaitMs: 5_000 },
      signedIn,
    );
    const first = send(port, "/");
    await until(() => started.length === 1);
    const early = send(port, "/?early");
    await settle();
    const late = send(port, "/?late");
    await settle();

    expect((await send(port, "/?full")).status).toBe(503);
    const signedInReply = send(port, "/course-reg", { cookie: "portal_session=t" });
    expect((await late).status).toBe(503);

    held[0]!.finish();
    await until(() => started.length === 2);
    held[1]!.finish();
    await until(() => started.length === 3);
    held[2]!.finish();
    expect(started).toEqual(["/", "/course-reg", "/?early"]);
    expect((await signedInReply).status).toBe(200);
    expect((await early).status).toBe(200);
    await first;
  });
});

describe("passesTheLine", () => {
  it.each([
    ["GET", "/healthz", true],
    ["GET", "/readyz", true],
    ["GET", "/_astro/index.Bx1.css", true],
    ["HEAD", "/favicon.svg", true],
    ["GET", "/site.css?v=0123abcd", true],
    ["GET", "/site.css", true],
    ["GET", "/site.cssx", false],
    ["POST", "/api/paystack/webhook", true],
    ["GET", "/api/paystack/webhook", false],
    ["POST", "/api/remita/webhook", true],
    ["POST", "/api/remita/webhook?x=1", false],
    ["POST", "/_astro/x", false],
    ["GET", "/login", true],
    ["GET", "/login?signed_out=1", true],
    ["GET", "/loginx", false],
    ["GET", "/", false],
    ["POST", "/login", false],
    ["GET", "/api/student/profile/1", false],
  ] as const)("%s %s: %s", (method, path, passes) => {
    expect(passesTheLine(method, path)).toBe(passes);
  });
});
