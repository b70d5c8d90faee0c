import { describe, expect, it } from "vitest";
import { readSignedToken, signToken, type TokenPurpose } from "./signed-token.ts";

const KEY = "signing-key-for-tests-0123456789abcdef";

describe("signed verification tokens", () => {
  it("round-trips the purpose and the subject, colons and slashes included", () => {
    const token = signToken("exam-card", "42:2024/2025:1", KEY);
    expect(readSignedToken(token, KEY, ["exam-card"])).toEqual({
      purpose: "exam-card",
      subject: "42:2024/2025:1",
    });
  });

  it.each<[TokenPurpose, TokenPurpose[]]>([
    ["results", ["exam-card"]],
    ["exam-card", ["results"]],
    ["school-fee", ["results", "exam-card"]],
    ["results", ["school-fee", "hostel"]],
  ])("a %s token is refused where only %j is accepted", (purpose, accepted) => {
    expect(readSignedToken(signToken(purpose, "42", KEY), KEY, accepted)).toBeNull();
  });

  it("refuses a purpose nobody signs, even with the right key", () => {
    const token = signToken("library" as TokenPurpose, "42", KEY);
    expect(readSignedToken(token, KEY, ["library" as TokenPurpose])).toBeNull();
  });

  it("refuses a token whose purpose was changed under the same signature", () => {
    const [, signature] = signToken("results", "42", KEY).split(".");
    const swapped = `${Buffer.from("exam-card:42").toString("base64url")}.${signature}`;
    expect(readSignedToken(swapped, KEY, ["exam-card", "results"])).toBeNull();
  });
});
