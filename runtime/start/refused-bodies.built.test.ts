/**
 * A request refused before its body was read must not break the connection it came on (decision
 * 147). Runs `npm start`'s serving process on PGlite and talks to each of its three listeners as a
 * browser does: one kept connection, the next request sent on it as soon as the answer is in.
 */
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBuiltPortal, type BuiltPortal } from "./built-portal.test-kit.ts";
import { JSON_BODY_LIMIT } from "../../common/http/body-limits.ts";

let portal: BuiltPortal;
const origin = () => portal.origin;

beforeAll(async () => {
  portal = await startBuiltPortal("refused-bodies");
}, 120_000);
afterAll(() => portal?.stop());

type Answer = { status: number; connection: string | undefined };
type Body = "whole" | "chunked";

/**
 * Sends one request through `agent` and waits for its whole answer. `body` bytes go with a
 * Content-Length, all at once, or in 16 KiB chunks without one (a browser streaming an upload).
 */
function send(
  agent: http.Agent,
  target: { port: number; method: string; path: string; body?: { bytes: number; as: Body } },
) {
  return new Promise<Answer>((resolve, reject) => {
    const { body } = target;
    const headers: Record<string, string> = {
      origin: origin(),
      "content-type": "application/json",
    };
    if (body?.as === "whole") headers["content-length"] = String(body.bytes);
    const request = http.request(
      {
        agent,
        host: "127.0.0.1",
        port: target.port,
        method: target.method,
        path: target.path,
        headers,
      },
      (response) => {
        response.resume();
        response.once("end", () =>
          resolve({ status: response.statusCode!, connection: response.headers.connection }),
        );
        response.once("error", reject);
      },
    );
    // A reset before the answer fails the test; one after it (the rest of a refused body) settles nothing.
    request.once("error", reject);
    if (!body) return void request.end();
    if (body.as === "whole") return void request.end(Buffer.alloc(body.bytes, 0x20));
    for (let sent = 0; sent < body.bytes; sent += 16 * 1024)
      request.write(Buffer.alloc(16 * 1024, 0x20));
    request.end();
  });
}

/** A refused request, then a plain GET on the connection the browser would reuse. */
async function refusedThenNext(
  first: Parameters<typeof send>[1],
  next: { port: number; path: string },
) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const refused = await send(agent, first);
    const after = await send(agent, { ...next, method: "GET" }).catch((error: Error) => error);
    return { refused, after };
  } finally {
    agent.destroy();
  }
}

const OVERSIZED = 4 * JSON_BODY_LIMIT;

describe.each<[string, () => number, string, number, string]>([
  ["the proxy students reach", () => portal.port, "/api/complaint/create", 413, "/healthz"],
  ["the API", () => portal.port + 1, "/complaint/create", 413, "/healthz"],
  // The page server has no size limit of its own (the proxy's stands in front); a page that
  // answers without reading a post, here the sign-in redirect, leaves the same unread body.
  ["the page server", () => portal.port + 2, "/library", 302, "/login"],
])("%s, on a kept connection", (_listener, listenerPort, refusedPath, refusedStatus, nextPath) => {
  it.each<Body>(["whole", "chunked"])(
    "answers the next request after refusing an oversized body sent %s",
    async (as) => {
      const { refused, after } = await refusedThenNext(
        { port: listenerPort(), method: "POST", path: refusedPath, body: { bytes: OVERSIZED, as } },
        { port: listenerPort(), path: nextPath },
      );
      expect(refused.status).toBe(refusedStatus);
      expect(after).not.toBeInstanceOf(Error);
      expect((after as Answer).status).toBe(200);
      // The promise kept by closing: the browser opens a new connection for what comes next.
      expect(refused.connection).toBe("close");
    },
  );
});
