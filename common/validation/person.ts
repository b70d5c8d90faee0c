import { z } from "zod";

const EARLIEST_BIRTH_YEAR = 1900;

/**
 * True for a real calendar date (handles leap years), year between 1900 and the current year,
 * not in the future. `today` defaults to the clock; pass it to pin the date in tests.
 */
export function isRealBirthDate(
  day: number,
  month: number,
  year: number,
  today: Date = new Date(),
): boolean {
  if (![day, month, year].every(Number.isInteger)) return false;
  if (year < EARLIEST_BIRTH_YEAR || month < 1 || month > 12 || day < 1) return false;
  // Day 0 of the next month is the last day of this one; UTC keeps clock changes out of it.
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (day > daysInMonth) return false;
  // Compare calendar days in the caller's time zone, which is where "today" was read.
  const asNumber = (y: number, m: number, d: number) => y * 10_000 + m * 100 + d;
  return (
    asNumber(year, month, day) <=
    asNumber(today.getFullYear(), today.getMonth() + 1, today.getDate())
  );
}

const SEPARATORS = /[\s().-]/g;
const INTERNATIONAL = /^\+?234(\d{10})$/;
const LOCAL_MOBILE = /^0(70|80|81|90|91)\d{8}$/;

/**
 * Accepts Nigerian mobile numbers written as 08031234567, 0803 123 4567, +2348031234567,
 * 2348031234567, 0803-123-4567 (spaces, hyphens, dots and brackets are ignored); returns the
 * canonical 11-digit local form "08031234567", or null if it is not a Nigerian mobile number
 * (prefix 070, 080, 081, 090 or 091 followed by 8 digits).
 */
export function normalizeNigerianPhone(input: string): string | null {
  const compact = input.replace(SEPARATORS, "");
  const international = INTERNATIONAL.exec(compact);
  const local = international ? `0${international[1]}` : compact;
  return LOCAL_MOBILE.test(local) ? local : null;
}

const PHONE_MESSAGE = "Enter a Nigerian mobile number such as 08031234567.";

/** A Nigerian mobile number in any accepted form, parsed to the canonical "08031234567". */
export const NigerianPhone: z.ZodType<string> = z
  .string({ error: PHONE_MESSAGE })
  .transform((value, ctx) => {
    const phone = normalizeNigerianPhone(value);
    if (phone === null) {
      ctx.issues.push({ code: "custom", message: PHONE_MESSAGE, input: value });
      return z.NEVER;
    }
    return phone;
  });

// A spreadsheet takes 08031234567 for a number and drops the 0; a longer one (2348031234567) it
// writes as 2.34803E+12, whose last digits are gone for good.
const LEADING_ZERO_DROPPED = /^(70|80|81|90|91)\d{8}$/;
const SCIENTIFIC = /^\d(\.\d+)?e\+?\d+$/i;

/**
 * A phone cell of an import file: what NigerianPhone accepts, and a number a spreadsheet stripped
 * of its leading 0 (8031234567). Not for forms people type into: there a missing 0 is a typo.
 */
export const ImportedPhone: z.ZodType<string> = z
  .string({ error: PHONE_MESSAGE })
  .transform((value, ctx) => {
    const cell = value.trim();
    if (SCIENTIFIC.test(cell)) {
      ctx.issues.push({
        code: "custom",
        message: `The spreadsheet turned this phone number into ${cell} and lost its last digits. Format the phone column as Text, type the numbers again and save the file.`,
        input: value,
      });
      return z.NEVER;
    }
    const compact = cell.replace(SEPARATORS, "");
    const phone = normalizeNigerianPhone(LEADING_ZERO_DROPPED.test(compact) ? `0${compact}` : cell);
    if (phone === null) {
      ctx.issues.push({ code: "custom", message: PHONE_MESSAGE, input: value });
      return z.NEVER;
    }
    return phone;
  });

const EMAIL_MESSAGE = "Enter a valid e-mail address.";

/** An e-mail address, trimmed and lower-cased; at most 254 characters (the SMTP limit). */
export const EmailAddress: z.ZodType<string> = z
  .string({ error: EMAIL_MESSAGE })
  .trim()
  .toLowerCase()
  .pipe(z.email({ error: EMAIL_MESSAGE }).max(254, { error: EMAIL_MESSAGE }));
