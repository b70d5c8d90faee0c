import { describe, expect, it } from "vitest";
import { countryNames, isCountryName } from "./countries.ts";

const names = countryNames();
const collator = new Intl.Collator("en");

describe("countryNames", () => {
  it.each(["Nigeria", "Ghana", "United Kingdom", "United States of America"])(
    "includes %s",
    (name) => {
      expect(names).toContain(name);
    },
  );

  it("has every ISO 3166-1 country once, and Kosovo's user-assigned code not at all", () => {
    expect(names.length).toBeGreaterThan(240);
    expect(new Set(names).size).toBe(names.length);
    expect(names).not.toContain("Kosovo");
  });

  it("is sorted A–Z", () => {
    const outOfOrder = names.filter((name, i) => i > 0 && collator.compare(names[i - 1], name) > 0);
    expect(outOfOrder).toEqual([]);
  });

  it("returns a fresh array each time", () => {
    countryNames().pop();
    expect(countryNames()).toEqual(names);
  });
});

describe("isCountryName", () => {
  it.each([
    ["Nigeria", true],
    ["  nigeria ", true],
    ["GHANA", true],
    ["United Kingdom", true],
    ["Naija", false],
    ["", false],
    ["Lagos", false],
  ])("%j → %s", (input, expected) => {
    expect(isCountryName(input)).toBe(expected);
  });
});
