import { readFileSync } from "node:fs";
import path from "node:path";
import { parseEnv } from "node:util";
import { describe, expect, it } from "vitest";
import { readServerEnv } from "../../server/env.ts";
import { readProxyEnv } from "../../proxy/env.ts";
import { PUBLIC_SANDBOX_KEY } from "../../server/paystack/secret-key.ts";
import { portalLayout, servesRemitaSandbox } from "./layout.ts";
import { REMITA_DEMO } from "../../server/remita/settings.ts";

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
    expect(layout.remitaSandboxPort).toBe(4328);
    expect(layout.offeredGateways).toEqual(["paystack"]);
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
    ALLOW_SMS_OUTBOX_IN_PRODUCTION: "true",
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

describe("Remita for every part of one start (decision 188)", () => {
  const development = { NODE_ENV: "development" };
  const production = {
    NODE_ENV: "production",
    PAYSTACK_SECRET_KEY: "sk_live_configured",
    ALLOW_OUTBOX_IN_PRODUCTION: "true",
    ALLOW_SMS_OUTBOX_IN_PRODUCTION: "true",
    SLIP_SIGNING_SECRET: "a".repeat(40),
  };
  const account = {
    REMITA_API_KEY: "college-remita-key",
    REMITA_MERCHANT_ID: "27000001",
    REMITA_SERVICE_TYPE_ID: "50001,transcript:50002",
  };

  it("is the local sandbox on PORT+7 without a key, knowing the portal by Remita's demo credentials", () => {
    const layout = layoutOf({ ...development, PORT: "4600" });
    expect(layout.remita).toEqual({
      sandbox: true,
      baseUrl: "http://localhost:4607",
      merchantId: REMITA_DEMO.merchantId,
      apiKey: REMITA_DEMO.apiKey,
      serviceTypes: { fallback: REMITA_DEMO.serviceTypeId, byKind: {} },
    });
    expect(servesRemitaSandbox(layout)).toBe(true);
  });

  it("is Remita itself with a key, at REMITA_BASE_URL", () => {
    const layout = layoutOf({ ...development, ...account });
    expect(layout.remita).toEqual({
      sandbox: false,
      baseUrl: "https://login.remita.net",
      merchantId: "27000001",
      apiKey: "college-remita-key",
      serviceTypes: { fallback: "50001", byKind: { transcript: "50002" } },
    });
    expect(servesRemitaSandbox(layout)).toBe(false);
  });

  it("is served in production only where a demo site allows it", () => {
    expect(servesRemitaSandbox(layoutOf(production))).toBe(false);
    expect(
      servesRemitaSandbox(layoutOf({ ...production, ALLOW_REMITA_SANDBOX_IN_PRODUCTION: "true" })),
    ).toBe(true);
    expect(servesRemitaSandbox(layoutOf({ ...production, ...account }))).toBe(false);
  });

  it("carries the gateways students may use", () => {
    expect(
      layoutOf({ ...development, PAYMENT_GATEWAYS: "paystack,remita" }).offeredGateways,
    ).toEqual(["paystack", "remita"]);
  });
});
