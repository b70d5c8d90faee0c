import { describe, expect, it } from "vitest";
import { koboToNairaNumber, koboToNairaText, nairaTextToKobo, nairaToKobo } from "./amount.ts";

describe("kobo to the naira text Remita is sent", () => {
  it.each([
    [2_500_000, "25000"],
    [2_500_050, "25000.50"],
    [2_500_005, "25000.05"],
    [29, "0.29"],
    [100, "1"],
    [0, "0"],
    [1_000_000_000_00, "1000000000"],
  ])("%i kobo is %s", (kobo, text) => {
    expect(koboToNairaText(kobo)).toBe(text);
    expect(nairaTextToKobo(text)).toBe(kobo);
  });

  it.each([-1, 1.5, Number.NaN, 2 ** 60])("refuses %d, which is not whole kobo", (kobo) => {
    expect(() => koboToNairaText(kobo)).toThrow(RangeError);
  });
});

describe("naira from Remita to kobo, exactly", () => {
  it.each([
    ["25000.50", 2_500_050],
    ["25000.5", 2_500_050],
    ["0.29", 29],
    ["1000", 100_000],
    [" 1000 ", 100_000],
  ])("text %j is %i kobo", (text, kobo) => {
    expect(nairaTextToKobo(text)).toBe(kobo);
  });

  it.each([
    [1000.0, 100_000],
    [25000.5, 2_500_050],
    // 0.29 * 100 is 28.999999999999996 as a float; read through its digits it is 29.
    [0.29, 29],
    [1.15, 115],
    [4_999_999.99, 499_999_999],
    ["20000", 2_000_000],
  ])("JSON amount %j is %i kobo", (amount, kobo) => {
    expect(nairaToKobo(amount)).toBe(kobo);
  });

  it.each([["25000.505"], ["-5"], ["1e3"], ["25,000"], ["₦5"], [""], ["abc"]])(
    "refuses text %j",
    (text) => {
      expect(nairaTextToKobo(text)).toBeNull();
    },
  );

  it.each([[-1], [1.005], [Number.NaN], [Number.POSITIVE_INFINITY], [1e21], [null], [{}]])(
    "refuses the amount %j",
    (amount) => {
      expect(nairaToKobo(amount)).toBeNull();
    },
  );

  it("writes kobo back as the JSON number Remita's status answer carries", () => {
    expect(koboToNairaNumber(2_500_050)).toBe(25000.5);
    expect(koboToNairaNumber(29)).toBe(0.29);
    expect(JSON.stringify({ amount: koboToNairaNumber(100_000) })).toBe('{"amount":1000}');
  });
});
