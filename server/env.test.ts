import { describe, expect, it } from "vitest";
import { DEVELOPMENT_SLIP_SIGNING_KEY, readServerEnv } from "./env.ts";
import { PUBLIC_SANDBOX_KEY } from "./paystack/secret-key.ts";

const production = {
  NODE_ENV: "production",
  SLIP_SIGNING_SECRET: "s".repeat(32),
  SMTP_URL: "smtp://mail.college.test:587",
};

describe("readServerEnv without NODE_ENV (decision 123)", () => {
  it("runs as production, refusing to start on the development stand-ins", () => {
    expect(() => readServerEnv({})).toThrow(
      [
        "Invalid configuration:",
        "  - PAYSTACK_SECRET_KEY: required in production (or set ALLOW_PAYSTACK_SANDBOX_IN_PRODUCTION=true)",
        "  - SLIP_SIGNING_SECRET: required in production",
        "  - SMTP_URL: required in production (or set ALLOW_OUTBOX_IN_PRODUCTION=true)",
      ].join("\n"),
    );
    expect(readServerEnv({ ...production, NODE_ENV: undefined, PAYSTACK_SECRET_KEY: "sk_live_0123" }).NODE_ENV).toBe("production");
  });

  it.each(["development", "test"])("starts without secrets only when NODE_ENV says %s", (nodeEnv) => {
    expect(readServerEnv({ NODE_ENV: nodeEnv }).NODE_ENV).toBe(nodeEnv);
  });

  it("refuses a NODE_ENV it does not know instead of guessing", () => {
    expect(() => readServerEnv({ NODE_ENV: "prod" })).toThrow("NODE_ENV:");
  });
});

describe("readServerEnv's secrets", () => {
  const live = { ...production, PAYSTACK_SECRET_KEY: "sk_live_0123" };

  it("refuses the development slip-signing key in production", () => {
    expect(() => readServerEnv({ ...live, SLIP_SIGNING_SECRET: DEVELOPMENT_SLIP_SIGNING_KEY })).toThrow(
      "SLIP_SIGNING_SECRET: the development key is public; choose 32+ random characters",
    );
  });

  it.each([
    ["SLIP_SIGNING_SECRET", ""],
    ["SLIP_SIGNING_SECRET", "s".repeat(31)],
    ["PROXY_SHARED_SECRET", ""],
    ["PROXY_SHARED_SECRET", "p".repeat(31)],
  ])("refuses %s=%j, in production and out of it", (name, value) => {
    expect(() => readServerEnv({ ...live, [name]: value })).toThrow(`${name}: Use at least 32 random characters.`);
    expect(() => readServerEnv({ NODE_ENV: "development", [name]: value })).toThrow(`${name}: Use at least 32 random characters.`);
  });

  it("takes a proxy secret of 32 characters or more", () => {
    expect(readServerEnv({ ...live, PROXY_SHARED_SECRET: "p".repeat(32) }).PROXY_SHARED_SECRET).toBe("p".repeat(32));
  });
});

describe("readServerEnv in production", () => {
  it("starts with a real Paystack key", () => {
    expect(
      readServerEnv({ ...production, PAYSTACK_SECRET_KEY: "sk_live_0123" }).PAYSTACK_SECRET_KEY,
    ).toBe("sk_live_0123");
  });

  it("starts with the sandbox only when it is allowed", () => {
    expect(() => readServerEnv(production)).toThrow(/PAYSTACK_SECRET_KEY: required in production/);
    const env = readServerEnv({ ...production, ALLOW_PAYSTACK_SANDBOX_IN_PRODUCTION: "true" });
    expect(env.ALLOW_PAYSTACK_SANDBOX_IN_PRODUCTION).toBe(true);
  });

  it.each(["false", "true"])(
    "refuses the sandbox's public key as PAYSTACK_SECRET_KEY (sandbox allowed: %s)",
    (allowed) => {
      const source = {
        ...production,
        PAYSTACK_SECRET_KEY: PUBLIC_SANDBOX_KEY,
        ALLOW_PAYSTACK_SANDBOX_IN_PRODUCTION: allowed,
      };
      expect(() => readServerEnv(source)).toThrow(
        "PAYSTACK_SECRET_KEY: the local sandbox's public key cannot be used in production",
      );
    },
  );
});

describe("readServerEnv's capacity settings (decision 112)", () => {
  const development = { NODE_ENV: "development" };

  it("takes a number of serving processes and a session cache window", () => {
    const env = readServerEnv({ ...development, WEB_CONCURRENCY: "3", SESSION_CACHE_MS: "0" });
    expect([env.WEB_CONCURRENCY, env.SESSION_CACHE_MS]).toEqual([3, 0]);
    expect(readServerEnv(development).SESSION_CACHE_MS).toBe(2_000);
  });

  it.each([
    ["WEB_CONCURRENCY", "0"],
    ["WEB_CONCURRENCY", "two"],
    ["WEB_CONCURRENCY", "1.5"],
    ["SESSION_CACHE_MS", "-1"],
    ["SESSION_CACHE_MS", "60000"],
  ])("refuses %s=%s, naming it", (name, value) => {
    expect(() => readServerEnv({ ...development, [name]: value })).toThrow(`${name}:`);
  });
});
