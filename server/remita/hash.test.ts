import { describe, expect, it } from "vitest";
import {
  finalizeHash,
  paymentInitHash,
  readRemitaAuthorization,
  remitaAuthorization,
  sameHash,
  statusHash,
} from "./hash.ts";
import { REMITA_DEMO } from "./settings.ts";

// Expected digests computed apart from this code (`printf '%s' TEXT | sha512sum`), over the
// concatenations Remita's SDKs make, with Remita's public demo credentials.
const { merchantId, serviceTypeId, apiKey } = REMITA_DEMO;
const RRR = "140007752615";

describe("Remita's hashes", () => {
  it("paymentinit: SHA512(merchantId + serviceTypeId + orderId + amount + apiKey), amount as sent", () => {
    // "25479164430731ORD-000125000.501946"
    expect(
      paymentInitHash({
        merchantId,
        serviceTypeId,
        orderId: "ORD-0001",
        amount: "25000.50",
        apiKey,
      }),
    ).toBe(
      "e36f0caf97acf1419037077a03739726499ce85ee772127f4f7d928c247611679b5653a2340f34fd63c63a7dc99a80ca4932eefba8fc8ab42ebc7b300213a853",
    );
    // The amount's text is hashed as it stands: "25000.5" is another hash.
    expect(
      paymentInitHash({
        merchantId,
        serviceTypeId,
        orderId: "ORD-0001",
        amount: "25000.5",
        apiKey,
      }),
    ).not.toBe(
      paymentInitHash({
        merchantId,
        serviceTypeId,
        orderId: "ORD-0001",
        amount: "25000.50",
        apiKey,
      }),
    );
  });

  it("status.reg and deactivate.json: SHA512(rrr + apiKey + merchantId)", () => {
    // "14000775261519462547916"
    expect(statusHash({ key: RRR, apiKey, merchantId })).toBe(
      "5b6d5f6a5228345613c2310301a06ee2e4a262aa83b6920d76581ca8c3f2d1f11a1a6e33b4b86d84c380888686dd21df1fe388a5c2b72fc5d84b9c9445d75c2f",
    );
  });

  it("orderstatus.reg: SHA512(orderId + apiKey + merchantId)", () => {
    // "ORD-000119462547916"
    expect(statusHash({ key: "ORD-0001", apiKey, merchantId })).toBe(
      "55128a3248ee48e9c790b635da7bfd006fdd37806eb42a37f2533b52af7074d147f09fb18dbfae770e2d2ada215bda0be1fbcfbd2216a837b5dd8a08e822cbae",
    );
  });

  it("finalize.reg's form: SHA512(merchantId + rrr + apiKey)", () => {
    // "25479161400077526151946"
    expect(finalizeHash({ merchantId, rrr: RRR, apiKey })).toBe(
      "bd83ea0eb8690f1d193fe1d6bbdfcaf38fd838ed20ba25acf225c86131ab7af1638decd45e9972fc761e557b03204d515d55e280ed5bfccb1ac5e6785154c0af",
    );
  });

  it("are lowercase hex of 128 digits", () => {
    expect(statusHash({ key: RRR, apiKey, merchantId })).toMatch(/^[0-9a-f]{128}$/);
  });
});

describe("Remita's Authorization header", () => {
  it("is written with no scheme word and no space after the comma", () => {
    expect(remitaAuthorization("2547916", "abc")).toBe(
      "remitaConsumerKey=2547916,remitaConsumerToken=abc",
    );
  });

  it.each([
    ["remitaConsumerKey=2547916,remitaConsumerToken=abc", { merchantId: "2547916", token: "abc" }],
    [
      " remitaConsumerKey=2547916, remitaConsumerToken=abc ",
      { merchantId: "2547916", token: "abc" },
    ],
    ["Bearer abc", null],
    ["remitaConsumerToken=abc,remitaConsumerKey=2547916", null],
    ["", null],
    [null, null],
  ])("reads %j", (header, expected) => {
    expect(readRemitaAuthorization(header)).toEqual(expected);
  });
});

describe("sameHash", () => {
  it("compares hex case-insensitively, and refuses any other length", () => {
    expect(sameHash("ABCDEF", "abcdef")).toBe(true);
    expect(sameHash("abcde", "abcdef")).toBe(false);
    expect(sameHash("abcdee", "abcdef")).toBe(false);
  });
});
