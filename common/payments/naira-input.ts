/** The largest fee the schedule accepts: ten million naira, well inside PostgreSQL's integer kobo. */
export const MAX_FEE_KOBO = 10_000_000_00;

// "45000", "45,000", "45,000.5", "45,000.50", "₦45,000.50": commas only in groups of three.
const NAIRA = /^(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?$/;

/**
 * Naira as an officer types them ("45,000.50") to whole kobo, by reading the digits as text: a
 * float would turn 0.29 naira into 28.999… kobo. Answers the kobo or the problem to show.
 */
export function parseNairaToKobo(input: string): { kobo: number } | { problem: string } {
  const text = input.trim().replace(/^₦\s*/, "");
  if (text === "") return { problem: "Enter the amount in naira, like 45,000.00." };
  if (text.startsWith("-"))
    return { problem: "A fee cannot be negative. Enter the amount in naira, like 45,000.00." };
  if (/^[\d,]*\.\d{3,}$/.test(text)) {
    return {
      problem: "Naira have at most two decimal places (kobo). Enter the amount like 45,000.50.",
    };
  }
  const match = NAIRA.exec(text);
  if (!match)
    return {
      problem:
        "Enter the amount in naira using digits, like 45,000.00 (commas between thousands are fine).",
    };
  const [whole, fraction = ""] = text.replaceAll(",", "").split(".");
  const kobo = Number(whole) * 100 + Number(fraction.padEnd(2, "0"));
  if (kobo === 0) return { problem: "A fee must be more than ₦0." };
  if (kobo > MAX_FEE_KOBO)
    return { problem: "That is more than ₦10,000,000.00; check the amount." };
  return { kobo };
}

/** Kobo as the schedule's forms and CSV files write naira: "45000.50", no grouping, always two decimals. */
export function koboToNairaText(kobo: number): string {
  return `${Math.trunc(kobo / 100)}.${String(kobo % 100).padStart(2, "0")}`;
}
