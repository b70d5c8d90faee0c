import { describe, expect, it } from "vitest";
import { readSlipToken, slipToken, slipVerifyUrl } from "./slip-token.ts";
import { signToken } from "../verification/signed-token.ts";

const KEY = "slip-key-for-tests-0123456789abcdef";
const token = slipToken("school-fee", "CCE-20250115-7K3QX9M2PZ4D", KEY);

describe("slip verification tokens", () => {
  it("round-trips kind and reference and carries at least 128 bits of signature", () => {
    expect(readSlipToken(token, KEY)).toEqual({
      kind: "school-fee",
      reference: "CCE-20250115-7K3QX9M2PZ4D",
    });
    expect(Buffer.from(token.split(".")[1]!, "base64url").length * 8).toBeGreaterThanOrEqual(128);
    expect(slipVerifyUrl("https://portal.test", "hostel", "R1", KEY)).toMatch(
      /^https:\/\/portal\.test\/verify\/[\w-]+\.[\w-]{22}$/,
    );
  });

  const [payload, signature] = token.split(".") as [string, string];
  const otherPayload = Buffer.from("school-fee:CCE-20250115-AAAAAAAAAAAA").toString("base64url");
  const flip = (text: string) => (text[0] === "A" ? "B" : "A") + text.slice(1);
  // The last character carries 2 signature bits and 4 spare ones; changing a spare bit must fail too.
  const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  const spareBit = (text: string) =>
    text.slice(0, -1) + ALPHABET[ALPHABET.indexOf(text.at(-1)!) ^ 1];

  it.each([
    [
      "signed with another key",
      slipToken("school-fee", "CCE-20250115-7K3QX9M2PZ4D", "another-key"),
    ],
    ["another reference under the same signature", `${otherPayload}.${signature}`],
    ["an altered signature", `${payload}.${flip(signature)}`],
    ["a signature altered in its spare bits", `${payload}.${spareBit(signature)}`],
    ["a cut-short signature", `${payload}.${signature.slice(0, 21)}`],
    ["no signature", payload],
    ["an unknown kind", slipToken("library" as "hostel", "R1", KEY)],
    [
      "no separator in the payload",
      `${Buffer.from("hostelR1").toString("base64url")}.${signature}`,
    ],
    ["empty", ""],
    ["rubbish", "../../etc/passwd"],
  ])("refuses a token %s", (_case, bad) => {
    expect(readSlipToken(bad, KEY)).toBeNull();
  });
});

it("refuses a printed result's or an exam card's token, signed with the same key", () => {
  expect(readSlipToken(signToken("results", "R1", KEY), KEY)).toBeNull();
  expect(readSlipToken(signToken("exam-card", "1:2024/2025:1", KEY), KEY)).toBeNull();
});
