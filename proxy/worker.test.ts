import { afterEach, describe, expect, it, vi } from "vitest";
import { PROXY_SECRET_HEADER } from "../common/http/proxy-secret.ts";
import worker, { proxyFromBindings, type WorkerBindings } from "./worker.ts";

const SECRET = "worker-test-shared-secret-0123456789";
const BINDINGS = {
  PUBLIC_ORIGIN: "https://portal.college.test",
  API_URL: "https://api.internal.test",
  PAGES_URL: "https://pages.internal.test",
  PROXY_SHARED_SECRET: SECRET,
  CLIENT_ADDRESS_HEADER: "cf-connecting-ip",
};
const context = { waitUntil() {}, passThroughOnException() {}, props: {} };

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** Sends one request through the worker and answers what reached the API or page server. */
async function relayed(bindings: WorkerBindings, headers: Record<string, string>) {
  const upstream = vi.fn(async (_request: Request) => Response.json({}));
  vi.stubGlobal("fetch", upstream);
  const response = await worker.fetch(
    new Request("https://portal.college.test/api/student/me", { headers }),
    bindings,
    context,
  );
  expect(response.status).toBe(200);
  return upstream.mock.calls[0]![0];
}

describe("the worker's bindings", () => {
  it.each([
    {
      case: "none at all",
      bindings: {},
      says: [
        "PUBLIC_ORIGIN: Required on a worker",
        "API_URL: Required",
        "PAGES_URL: Required",
        "PROXY_SHARED_SECRET: Required",
      ],
    },
    {
      case: "a secret too short and an address that is not one",
      bindings: { ...BINDINGS, PROXY_SHARED_SECRET: "short", API_URL: "api.internal" },
      says: ["PROXY_SHARED_SECRET: Use at least 32 random characters.", "API_URL: Invalid URL"],
    },
    {
      case: "no rule for the client address (a worker has no socket to fall back on)",
      bindings: { ...BINDINGS, CLIENT_ADDRESS_HEADER: undefined },
      says: [
        "CLIENT_ADDRESS_HEADER, TRUSTED_PROXY_HOPS: a worker has no socket address",
        "CLIENT_ADDRESS_HEADER=cf-connecting-ip",
      ],
    },
    {
      case: "no rule, hops said as 0",
      bindings: { ...BINDINGS, CLIENT_ADDRESS_HEADER: "", TRUSTED_PROXY_HOPS: "0" },
      says: ["a worker has no socket address"],
    },
    {
      case: "a header and hops together",
      bindings: { ...BINDINGS, TRUSTED_PROXY_HOPS: "1" },
      says: ["set one of them, not both"],
    },
    {
      case: "a header clients write to",
      bindings: { ...BINDINGS, CLIENT_ADDRESS_HEADER: "x-forwarded-for" },
      says: ["Clients write to this header too"],
    },
  ])("are refused: $case", ({ bindings, says }) => {
    let message = "";
    try {
      proxyFromBindings(bindings);
    } catch (error) {
      message = (error as Error).message;
    }
    for (const words of says) expect(message).toContain(words);
  });

  it("and a worker built from bad ones answers 503, its log saying why and the student nothing more", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const upstream = vi.fn();
    vi.stubGlobal("fetch", upstream);

    const response = await worker.fetch(
      new Request("https://portal.college.test/healthz"),
      { PUBLIC_ORIGIN: "https://portal.college.test" },
      context,
    );

    expect(response.status).toBe(503);
    expect(await response.text()).toBe(
      "The portal is not answering right now. Please try again in a minute.",
    );
    expect(log.mock.calls.join("\n")).toContain("API_URL: Required on a worker");
    expect(upstream).not.toHaveBeenCalled();
  });
});

describe("the client's address, as the worker passes it on", () => {
  it("from the CDN's header, with the secret that makes the API believe it", async () => {
    const sent = await relayed(BINDINGS, {
      "cf-connecting-ip": "203.0.113.9",
      "x-forwarded-for": "198.51.100.23",
    });

    expect(sent.url).toBe("https://api.internal.test/student/me");
    expect(sent.headers.get("x-forwarded-for")).toBe("203.0.113.9");
    expect(sent.headers.get(PROXY_SECRET_HEADER)).toBe(SECRET);
  });

  it("from x-forwarded-for, counted from the right, with hops given as a number (as wrangler passes a numeric var)", async () => {
    const behindOneBalancer = {
      ...BINDINGS,
      CLIENT_ADDRESS_HEADER: undefined,
      TRUSTED_PROXY_HOPS: 1,
    };

    const sent = await relayed(behindOneBalancer, {
      "cf-connecting-ip": "198.51.100.1",
      "x-forwarded-for": "198.51.100.23, 203.0.113.9",
    });

    expect(sent.headers.get("x-forwarded-for")).toBe("203.0.113.9");
  });
});
