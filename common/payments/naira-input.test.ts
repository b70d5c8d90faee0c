import { describe, expect, it } from "vitest";
import { koboToNairaText, parseNairaToKobo } from "./naira-input.ts";

describe("naira typed by an officer", () => {
  it.each([
    ["45,000.50", 4_500_050],
    ["45000.5", 4_500_050],
    ["45000", 4_500_000],
    ["₦ 1,234,567.89", 123_456_789],
    ["0.29", 29],
    ["0.01", 1],
    [" 120,000.00 ", 12_000_000],
  ])("%j is %d kobo", (input, kobo) => {
    expect(parseNairaToKobo(input)).toEqual({ kobo });
  });

  it.each([
    ["", "Enter the amount"],
    ["-5000", "cannot be negative"],
    ["45000.505", "at most two decimal places"],
    ["4,50,00", "using digits"],
    ["45 000", "using digits"],
    ["1e5", "using digits"],
    ["0", "more than ₦0"],
    ["0.00", "more than ₦0"],
    ["10,000,000.01", "more than ₦10,000,000.00"],
  ])("refuses %j", (input, message) => {
    const answer = parseNairaToKobo(input);
    expect("problem" in answer && answer.problem).toContain(message);
  });

  it("writes kobo back as plain naira with two decimals", () => {
    expect(koboToNairaText(4_500_050)).toBe("45000.50");
    expect(koboToNairaText(7)).toBe("0.07");
    expect(parseNairaToKobo(koboToNairaText(123_456_789))).toEqual({ kobo: 123_456_789 });
  });
});
