import { describe, expect, it } from "vitest";
import { isGsm7, septets, smsSegments } from "./gsm7.ts";

describe("the GSM-7 alphabet", () => {
  it("takes plain English, digits and the punctuation templates use", () => {
    expect(
      isGsm7("123456 is your code. It works for 10 minutes: NGN 45,000 paid (ref PSK-1)."),
    ).toBe(true);
  });

  it("takes the naira written as NGN, and the accents and Greek capitals of the basic set", () => {
    expect(isGsm7("NGN 45,000")).toBe(true);
    expect(isGsm7("Ça déjà, Ñoño; Δ Ω £ ¥ § ¿¡")).toBe(true);
  });

  it.each([
    ["the naira sign", "₦45,000"],
    ["an em dash", "paid — thank you"],
    ["curly quotes", "“approved”"],
    ["an emoji", "done 👍"],
  ])("does not take %s", (_, text) => {
    expect(isGsm7(text)).toBe(false);
  });

  it("counts extension characters as two septets", () => {
    expect(septets("€")).toBe(2);
    expect(septets("a[b]")).toBe(6);
    expect(septets("^{}\\[~]|€\f")).toBe(20);
    expect(septets("NGN")).toBe(3);
    expect(isGsm7("{€}")).toBe(true);
  });
});

describe("smsSegments", () => {
  it("fits 160 GSM-7 characters in one segment and 161 in two", () => {
    expect(smsSegments("a".repeat(160))).toBe(1);
    expect(smsSegments("a".repeat(161))).toBe(2);
    expect(smsSegments("a".repeat(306))).toBe(2);
    expect(smsSegments("a".repeat(307))).toBe(3);
  });

  it("counts an extension character twice against the 160", () => {
    expect(smsSegments(`${"a".repeat(158)}€`)).toBe(1);
    expect(smsSegments(`${"a".repeat(159)}€`)).toBe(2);
  });

  it("starts a new part rather than split an extension character's two septets", () => {
    // 306 septets would fill two parts exactly, but the € cannot straddle the first boundary.
    expect(smsSegments(`${"a".repeat(152)}€${"a".repeat(152)}`)).toBe(3);
    expect(smsSegments(`${"a".repeat(151)}€${"a".repeat(153)}`)).toBe(2);
  });

  it("sends a message with one character outside GSM-7 as UCS-2, 70 to a segment", () => {
    expect(smsSegments(`₦${"a".repeat(69)}`)).toBe(1);
    expect(smsSegments(`₦${"a".repeat(70)}`)).toBe(2);
    expect(smsSegments(`₦${"a".repeat(133)}`)).toBe(2);
    expect(smsSegments(`₦${"a".repeat(134)}`)).toBe(3);
  });

  it("counts an emoji as two UCS-2 units and keeps its halves in one part", () => {
    expect(smsSegments(`👍${"a".repeat(68)}`)).toBe(1);
    expect(smsSegments(`👍${"a".repeat(69)}`)).toBe(2);
    // 134 units would fill two parts exactly, but the emoji cannot straddle the boundary.
    expect(smsSegments(`₦${"a".repeat(65)}👍${"a".repeat(66)}`)).toBe(3);
  });
});
