import { afterEach, describe, expect, it, vi } from "vitest";
import { createProxy } from "./app.ts";
import { recordingProxy } from "./recording-proxy.test-kit.ts";

const ORIGIN = "http://localhost:4321";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const CLIENTS_ID = "6f1d2c3b-4a59-4e87-9d6c-5b4a3f2e1d0c";

afterEach(() => vi.restoreAllMocks());

describe("request ids at the proxy (decision 125)", () => {
  it("makes one per request, sends it upstream and returns it, whatever id the client sent", async () => {
    const { app, sent } = recordingProxy();
    const ids: string[] = [];
    for (const path of ["/api/student/me", "/dashboard", "/api/student/me"]) {
      const response = await app.request(`${ORIGIN}${path}`, {
        headers: { "x-request-id": CLIENTS_ID },
      });
      const id = response.headers.get("x-request-id")!;
      expect(id).toMatch(UUID);
      expect(sent.at(-1)!.headers.get("x-request-id")).toBe(id);
      ids.push(id);
    }
    expect(new Set(ids).size).toBe(3);
    expect(ids).not.toContain(CLIENTS_ID);
  });

  it("gives the student the reference when the portal behind it does not answer", async () => {
    const { app } = recordingProxy(ORIGIN, () => {
      throw new TypeError("fetch failed: connect ECONNREFUSED 127.0.0.1:4322");
    });
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const response = await app.request(`${ORIGIN}/dashboard?phone=08031234567`);
    const id = response.headers.get("x-request-id")!;
    expect(response.status).toBe(502);
    expect(await response.text()).toBe(
      `The portal is not answering right now. Please try again in a minute. If it happens again, tell the help desk this reference: ${id}.`,
    );
    expect(JSON.parse(String(logged.mock.calls[0]![0]))).toMatchObject({
      level: "error",
      name: "proxy",
      requestId: id,
      message: "upstream failed",
    });
  });

  it("logs one line per request when asked, with the path but not its query or a link's secret", async () => {
    const lines: string[] = [];
    const app = createProxy({
      publicOrigin: ORIGIN,
      apiUrl: "http://api.internal",
      pagesUrl: "http://pages.internal",
      logRequests: (line) => void lines.push(line),
      fetch: async () => new Response("ok"),
    });
    const first = await app.request(`${ORIGIN}/history/payments?phone=08031234567&email=a%40b.ng`);
    await app.request(`${ORIGIN}/password/reset/MQ/0123456789abcdef0123456789abcdef`);
    await app.request(`${ORIGIN}/healthz`);

    const parsed = lines.map((line) => JSON.parse(line));
    expect(parsed).toEqual([
      expect.objectContaining({
        level: "info",
        name: "proxy",
        message: "request",
        requestId: first.headers.get("x-request-id"),
        method: "GET",
        path: "/history/payments",
        status: 200,
        durationMs: expect.any(Number),
      }),
      expect.objectContaining({ path: "/password/reset/[redacted]" }),
      // Probes are not logged: a balancer sends one every few seconds.
    ]);
    expect(lines.join("\n")).not.toMatch(/08031234567|a%40b|0123456789abcdef/);
  });

  it("logs nothing by default", async () => {
    const log = vi.spyOn(console, "log");
    const { app } = recordingProxy();
    await app.request(`${ORIGIN}/dashboard`);
    expect(log).not.toHaveBeenCalled();
  });
});
