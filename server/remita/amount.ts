// Remita takes and gives amounts in naira: as text in requests ("25000", "25000.50") and as a
// JSON number in status answers (1000.0). We keep kobo as integers, so both conversions read and
// write digits, never multiply a float: 0.29 naira is 29 kobo, not 28.999….

const NAIRA_TEXT = /^(\d{1,13})(?:\.(\d{1,2}))?$/;

/**
 * Whole kobo as the naira text we send: whole naira without decimals ("25000", as Remita's own
 * samples write them), anything else with exactly two ("25000.50"). The same text goes into the
 * hash, so it must be produced once and reused.
 */
export function koboToNairaText(kobo: number): string {
  if (!Number.isSafeInteger(kobo) || kobo < 0) throw new RangeError(`not whole kobo: ${kobo}`);
  const naira = Math.trunc(kobo / 100);
  const rest = kobo % 100;
  return rest === 0 ? String(naira) : `${naira}.${String(rest).padStart(2, "0")}`;
}

/** Naira text ("25000", "25000.5", "25000.50") as whole kobo; null for anything else. */
export function nairaTextToKobo(text: string): number | null {
  const match = NAIRA_TEXT.exec(text.trim());
  if (!match) return null;
  const [, whole, fraction = ""] = match;
  return Number(whole) * 100 + Number(fraction.padEnd(2, "0"));
}

/**
 * A naira amount as Remita's JSON gives it (a number such as 1000.0 or 25000.5, or the same as a
 * string) in whole kobo; null when it is not a non-negative amount with at most two decimals.
 * A number is read through its shortest decimal text, which JSON.parse produced it from.
 */
export function nairaToKobo(amount: unknown): number | null {
  if (typeof amount === "number") {
    if (!Number.isFinite(amount) || amount < 0) return null;
    // String(1e21) is "1e+21": far beyond any fee, and refused by the pattern.
    return nairaTextToKobo(String(amount));
  }
  if (typeof amount === "string") return nairaTextToKobo(amount);
  return null;
}

/** Whole kobo as the JSON number Remita's status answer carries (25000.5 for 2500050 kobo). */
export function koboToNairaNumber(kobo: number): number {
  return Number(koboToNairaText(kobo));
}
