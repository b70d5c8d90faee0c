import { describe, expect, it } from "vitest";
import { choosePaystackSecretKey, PUBLIC_SANDBOX_KEY } from "./secret-key.ts";

describe("choosePaystackSecretKey", () => {
  it("uses the configured key wherever it runs", () => {
    expect(choosePaystackSecretKey({ nodeEnv: "production", configuredKey: "sk_live_abc" })).toBe(
      "sk_live_abc",
    );
  });

  it.each(["development", "test"])("lets %s drive the sandbox with the public key", (nodeEnv) => {
    expect(choosePaystackSecretKey({ nodeEnv, configuredKey: "" })).toBe(PUBLIC_SANDBOX_KEY);
  });

  it("makes a new random key for each production start with the sandbox", () => {
    const first = choosePaystackSecretKey({ nodeEnv: "production", configuredKey: "" });
    const second = choosePaystackSecretKey({ nodeEnv: "production", configuredKey: "" });
    expect(first).toMatch(/^sk_test_[0-9a-f]{64}$/);
    expect(first).not.toBe(second);
  });
});
