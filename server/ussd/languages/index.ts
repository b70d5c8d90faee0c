import { en, type UssdTextKey, type UssdTexts } from "./en.ts";
import { ha } from "./ha.ts";
import { ig } from "./ig.ts";
import { yo } from "./yo.ts";
import type { UssdLanguage } from "../../../common/ussd/ussd-pin.ts";

const TEXTS: Record<UssdLanguage, UssdTexts> = { en, ha, yo, ig };

/** The menu's text `key` in `language`, its `{placeholders}` filled. */
export function say(
  language: UssdLanguage,
  key: UssdTextKey,
  values: Record<string, string | number> = {},
): string {
  return TEXTS[language][key].replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in values ? String(values[name]) : whole,
  );
}

export { TEXTS as USSD_TEXTS };
export type { UssdTextKey };
