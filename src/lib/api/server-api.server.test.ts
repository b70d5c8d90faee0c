import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { z } from "zod";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { PROXY_SECRET_HEADER } from "../../../common/http/proxy-secret.ts";
import { apiFetch, useInProcessApi } from "./in-process-api.server.ts";
import { createServerApi, forwardedClient } from "./server-api.server.ts";

const SECRET = "page-server-test-secret-0123456789abcdef";

// The page server's view of a request the proxy (or someone else) sent it.
const pageRequest = (headers: Record<string, string>) =>
  new Request("http://127.0.0.1:4323/dashboard", { headers });

describe("the page server passes on the client's address only from the proxy (decision 122)", () => {
  const sent: Request[] = [];
  beforeEach(() => {
    vi.stubEnv("PROXY_SHARED_SECRET", SECRET);
    useInProcessApi((request) => {
      sent.push(request);
      return Response.json({ data: "ok" });
    });
  });
  afterEach(() => {
    vi.unstubAllEnvs();
    useInProcessApi(undefined as never);
    sent.length = 0;
  });

  it("reads x-forwarded-for from a request that carries the secret", () => {
    expect(
      forwardedClient(
        pageRequest({ "x-forwarded-for": "203.0.113.9", [PROXY_SECRET_HEADER]: SECRET }),
      ),
    ).toBe("203.0.113.9");
  });

  it.each([
    ["no secret", {}],
    ["a wrong secret", { [PROXY_SECRET_HEADER]: "guess" }],
  ])("ignores x-forwarded-for from a request with %s", (_case, secretHeader) => {
    expect(
      forwardedClient(pageRequest({ "x-forwarded-for": "203.0.113.9", ...secretHeader })),
    ).toBeNull();
  });

  it("believes no one when the page server has no secret", () => {
    vi.stubEnv("PROXY_SHARED_SECRET", undefined);
    expect(
      forwardedClient(pageRequest({ "x-forwarded-for": "203.0.113.9", [PROXY_SECRET_HEADER]: "" })),
    ).toBeNull();
  });

  it("sends the address with the secret on every API call", async () => {
    const api = createServerApi("token-1", "203.0.113.9");
    await api.get("/student/me", z.unknown());
    await api.download("/staff/reconciliation/export.csv");
    expect(sent).toHaveLength(2);
    for (const request of sent) {
      expect(request.headers.get("x-forwarded-for")).toBe("203.0.113.9");
      expect(request.headers.get(PROXY_SECRET_HEADER)).toBe(SECRET);
      expect(request.headers.get("authorization")).toBe("Bearer token-1");
    }
  });

  it("passes on the page request's id with every API call", async () => {
    const requestId = "0b7e3f1c-5a2d-4c8e-9f61-2d4a7b9c0e13";
    const api = createServerApi("token-1", "203.0.113.9", requestId);
    await api.get("/student/me", z.unknown());
    await api.download("/staff/reconciliation/export.csv");
    expect(sent.map((request) => request.headers.get("x-request-id"))).toEqual([
      requestId,
      requestId,
    ]);
  });

  it("names no one, and shows no secret, when it has no address to pass on", async () => {
    await createServerApi("token-1", null).get("/student/me", z.unknown());
    expect(sent[0]!.headers.get("x-forwarded-for")).toBeNull();
    expect(sent[0]!.headers.get(PROXY_SECRET_HEADER)).toBeNull();
  });
});

describe("apiFetch", () => {
  let silent: Server;
  beforeEach(async () => {
    // An API that takes requests and never answers them, as one stuck on its database would.
    silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
  });
  afterEach(async () => {
    silent.closeAllConnections();
    await new Promise((resolve) => silent.close(resolve));
    useInProcessApi(undefined as never);
  });

  it("gives up on an API across the network after the time it was given", async () => {
    const url = new URL(`http://127.0.0.1:${(silent.address() as AddressInfo).port}/student/me`);
    await expect(apiFetch(url, {}, 200)).rejects.toThrow(/timeout|aborted/i);
  });

  it("hands an in-process call its request without a timer on it", async () => {
    const handed: Request[] = [];
    useInProcessApi((request) => {
      handed.push(request);
      return Response.json({ data: "ok" });
    });
    const answer = await apiFetch(
      new URL("http://127.0.0.1:1/student/me"),
      { headers: { accept: "application/json" } },
      1,
    );
    expect(await answer.json()).toEqual({ data: "ok" });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(handed[0]!.signal.aborted).toBe(false);
    expect(handed[0]!.headers.get("accept")).toBe("application/json");
  });
});
