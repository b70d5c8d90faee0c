import { describe, expect, it } from "vitest";
import { isGsm7, smsSegments } from "./gsm7.ts";
import { resetCodeText } from "./templates.ts";

// Every template, filled with the longest and the oddest values it can be given, is one GSM-7
// segment: a second segment is paid twice, and one character outside GSM-7 halves what fits.
const FILLED = {
  "reset code": ["000000", "999999", "123456"].map(resetCodeText),
};

describe.each(Object.entries(FILLED))("the %s SMS", (_, texts) => {
  it.each(texts)("is one GSM-7 segment: %s", (text) => {
    expect(isGsm7(text)).toBe(true);
    expect(smsSegments(text)).toBe(1);
  });
});

describe("the reset code SMS", () => {
  it("starts with the code, so a phone can offer it to the form, and says how long it works", () => {
    expect(resetCodeText("042913")).toMatch(
      /^042913 is your Student Portal password code\. It works for 10 minutes\./,
    );
  });
});
