import { describe, expect, it } from "vitest";
import { isGsm7 } from "../../sms/gsm7.ts";
import { USSD_LANGUAGES } from "../../../common/ussd/ussd-pin.ts";
import { en, type UssdTextKey } from "./en.ts";
import { USSD_TEXTS } from "./index.ts";

// Each language says what English says in the same shape: the screens are filled and fitted by
// the same code whatever the language (decision 202).

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
const menuNumbers = (text: string) =>
  text
    .split("\n")
    .map((line) => /^(\d) /.exec(line)?.[1] ?? "-")
    .join("");

describe.each(USSD_LANGUAGES)("the menu's texts in %s", (language) => {
  const texts = USSD_TEXTS[language];

  it("has every text English has, and no other", () => {
    expect(Object.keys(texts).sort()).toEqual(Object.keys(en).sort());
  });

  it.each(Object.keys(en) as UssdTextKey[])(
    "keeps %s's placeholders, lines and menu numbers",
    (key) => {
      expect(placeholders(texts[key])).toEqual(placeholders(en[key]));
      expect(menuNumbers(texts[key])).toBe(menuNumbers(en[key]));
    },
  );

  it("writes only what a handset shows: GSM-7, no braces left over", () => {
    for (const text of Object.values(texts)) {
      expect(isGsm7(text), text).toBe(true);
      expect(text.replace(/\{\w+\}/g, ""), text).not.toMatch(/[{}]/);
    }
  });
});
