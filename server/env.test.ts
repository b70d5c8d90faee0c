import { describe, expect, it } from "vitest";
import { readServerEnv } from "./env.ts";
import { PUBLIC_SANDBOX_KEY } from "./paystack/secret-key.ts";

const production = {
  NODE_ENV: "production",
  SLIP_SIGNING_SECRET: "s".repeat(32),
  SMTP_URL: "smtp://mail.college.test:587",
};

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
