import countries from "i18n-iso-countries";
import en from "i18n-iso-countries/langs/en.json" with { type: "json" };

// The package's browser entry registers no locales, so register English ourselves; doing it
// on both server and browser keeps the list identical in each.
countries.registerLocale(en);

// "XK" (Kosovo) is a user-assigned code that the package carries but ISO 3166-1 does not.
const NOT_ISO_3166_1 = new Set(["XK"]);

const collator = new Intl.Collator("en");

function isoCountryNames(): string[] {
  // "official" takes the first English name; aliases would collide ("Congo" names two).
  const byCode = countries.getNames("en", { select: "official" });
  const list = Object.entries(byCode)
    .filter(([code]) => !NOT_ISO_3166_1.has(code))
    .map(([, name]) => name);
  return [...new Set(list)].sort(collator.compare);
}

const COUNTRY_NAMES = isoCountryNames();
const COUNTRY_KEYS = new Set(COUNTRY_NAMES.map((name) => name.toLowerCase()));

/** English names of the ISO 3166-1 countries, sorted A–Z, each once. Returns a fresh array. */
export function countryNames(): string[] {
  return [...COUNTRY_NAMES];
}

/** True when name is one of countryNames(), ignoring case and surrounding whitespace. */
export function isCountryName(name: string): boolean {
  return COUNTRY_KEYS.has(name.trim().toLowerCase());
}
