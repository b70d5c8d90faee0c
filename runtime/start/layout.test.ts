import { readFileSync } from "node:fs";
import path from "node:path";
import { parseEnv } from "node:util";
import { describe, expect, it } from "vitest";
import { readServerEnv } from "../../server/env.ts";
import { readProxyEnv } from "../../proxy/env.ts";
import { PUBLIC_SANDBOX_KEY } from "../../server/paystack/secret-key.ts";
import { portalLayout } from "./layout.ts";

const example = parseEnv(
  readFileSync(path.resolve(import.meta.dirname, "../../.env.example"), "utf8"),
);
const layoutOf = (env: Record<string, string | undefined>, sandboxKey?: string) =>
  portalLayout(readServerEnv(env), readProxyEnv(env), sandboxKey);

describe(".env.example copied as .env", () => {
  it("starts: blank ports, addresses and counts mean their defaults", () => {
    const layout = layoutOf(example);
    expect(layout.apiPort).toBe(4322);
    expect(layout.pagesPort).toBe(4323);
    expect(layout.apiUrl).toBe("http://127.0.0.1:4322");
    expect(layout.pagesUrl).toBe("http://127.0.0.1:4323");
    expect(layout.sandboxPort).toBe(4329);
    expect(layout.serverEnv.WEB_CONCURRENCY).toBeUndefined();
    expect(layout.serverEnv.API_HOST).toBe("127.0.0.1");
  });

  it("still refuses a blank secret rather than reading it as unset", () => {
    expect(() => readServerEnv({ ...example, PROXY_SHARED_SECRET: "" })).toThrow(
      /PROXY_SHARED_SECRET/,
    );
    expect(() => readServerEnv({ ...example, SLIP_SIGNING_SECRET: "" })).toThrow(
      /SLIP_SIGNING_SECRET/,
    );
  });

  it("still refuses a port that is not a number", () => {
    expect(() => readServerEnv({ ...example, API_PORT: "api" })).toThrow(/API_PORT/);
  });
});

describe("the Paystack key every part of one start uses", () => {
  const production = {
    NODE_ENV: "production",
    ALLOW_PAYSTACK_SANDBOX_IN_PRODUCTION: "true",
    ALLOW_OUTBOX_IN_PRODUCTION: "true",
    SLIP_SIGNING_SECRET: "a".repeat(40),
  };

  it("is the sandbox's random key, handed down, in a production demo on the sandbox", () => {
    const sandboxKey = `sk_test_${"b".repeat(64)}`;
    expect(layoutOf(production, sandboxKey).paystack.secretKey).toBe(sandboxKey);
    expect(layoutOf(production, sandboxKey).paystack.secretKey).toBe(
      layoutOf(production, sandboxKey).paystack.secretKey,
    );
  });

  it("is the public development key outside production, whatever was handed down", () => {
    expect(
      layoutOf({ NODE_ENV: "development" }, `sk_test_${"b".repeat(64)}`).paystack.secretKey,
    ).toBe(PUBLIC_SANDBOX_KEY);
  });

  it("is the configured key when there is one", () => {
    const configured = {
      ...production,
      PAYSTACK_SECRET_KEY: "sk_live_configured",
      ALLOW_PAYSTACK_SANDBOX_IN_PRODUCTION: "false",
    };
    expect(layoutOf(configured, `sk_test_${"b".repeat(64)}`).paystack.secretKey).toBe(
      "sk_live_configured",
    );
    expect(layoutOf(configured).paystack.baseUrl).toBe("https://api.paystack.co");
  });
});
