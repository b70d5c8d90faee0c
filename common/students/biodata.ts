import { z } from "zod";
import { countryNames, isCountryName } from "../places/countries.ts";
import { findNigerianState, isLgaOf, PlaceError } from "../places/nigeria.ts";
import { EmailAddress, isRealBirthDate, NigerianPhone } from "../validation/person.ts";
import { MARITAL_STATUSES, NIGERIA, RELIGIONS } from "./biodata-choices.ts";
import type { StudentRecord } from "./student-record.ts";

/** Why a locked record cannot be edited: the API's 403 and the page's notice say the same. */
export const BIODATA_LOCKED =
  "The registry has locked your biodata, so it can no longer be changed online. " +
  "If something in it is wrong, visit the registry with proof of the correct details.";

const LONGEST_TEXT = 254;
const LONGEST_PLACE = 100;

// A form field that is absent or blank means "leave this unchanged" (the spec's page sends
// every field, empty ones as ""); anything else must pass the field's own schema.
function unlessBlank<T>(schema: z.ZodType<T>, message: string) {
  return z
    .string({ error: message })
    .max(LONGEST_TEXT, { error: message })
    .optional()
    .transform((value, ctx): T | undefined => {
      const text = value?.trim();
      if (!text) return undefined;
      const result = schema.safeParse(text);
      if (result.success) return result.data;
      ctx.issues.push({ code: "custom", message: result.error.issues[0]!.message, input: text });
      return z.NEVER;
    });
}

// Case does not matter; `aliases` maps other accepted spellings (lower case) to a choice.
function oneOf<const T extends readonly string[]>(
  choices: T,
  message: string,
  aliases: Record<string, T[number]> = {},
) {
  return z.string().transform((value, ctx) => {
    const wanted = value.toLowerCase();
    const found = aliases[wanted] ?? choices.find((choice) => choice.toLowerCase() === wanted);
    if (found) return found as T[number];
    ctx.issues.push({ code: "custom", message, input: value });
    return z.NEVER;
  });
}

const wholeNumber = (message: string) =>
  z
    .string()
    .regex(/^\d{1,4}$/, message)
    .transform(Number);

const country = z.string().transform((value, ctx) => {
  if (isCountryName(value)) {
    return countryNames().find((name) => name.toLowerCase() === value.toLowerCase()) as string;
  }
  ctx.issues.push({
    code: "custom",
    message: "Choose your country of origin from the list.",
    input: value,
  });
  return z.NEVER;
});

const place = (message: string) => z.string().max(LONGEST_PLACE, { error: message });

/**
 * The text fields of PATCH /student/biodata-update/{id}, each parsed on its own. A blank or
 * absent field becomes undefined: leave it unchanged. Rules that need the stored record (a
 * complete birth date, a state and LGA that go together) are in resolveBiodataUpdate.
 */
export const BiodataForm = z.object({
  email: unlessBlank(EmailAddress, "Enter a valid e-mail address."),
  phone: unlessBlank(NigerianPhone, "Enter a Nigerian mobile number such as 08031234567."),
  religion: unlessBlank(
    oneOf(RELIGIONS, "Choose a religion from the list: Christianity, Islam or Others."),
    "Choose a religion from the list.",
  ),
  marital_status: unlessBlank(
    // The correct spelling is taken as the spec's "Seperated" (decision 032).
    oneOf(
      MARITAL_STATUSES,
      "Choose a marital status from the list: Single, Married or Seperated.",
      { separated: "Seperated" },
    ),
    "Choose a marital status from the list.",
  ),
  dob: unlessBlank(
    wholeNumber("Enter the day of birth as a number, such as 14."),
    "Enter the day of birth as a number.",
  ),
  mob: unlessBlank(
    wholeNumber("Enter the month of birth as a number from 1 to 12."),
    "Enter the month of birth as a number.",
  ),
  yob: unlessBlank(
    wholeNumber("Enter the year of birth as a four-digit number."),
    "Enter the year of birth as a number.",
  ),
  country_origin: unlessBlank(country, "Choose your country of origin from the list."),
  state_origin: unlessBlank(
    place("The state of origin is too long."),
    "The state of origin is too long.",
  ),
  lga_origin: unlessBlank(
    place("The LGA of origin is too long."),
    "The LGA of origin is too long.",
  ),
});
export type BiodataForm = z.infer<typeof BiodataForm>;

/** What the stored record already says about the fields that are checked together. */
export type StoredBiodata = Pick<
  StudentRecord,
  "dob" | "mob" | "yob" | "country_origin" | "state_origin" | "lga_origin"
>;

/** The columns an update changes; a null place clears it. */
export type BiodataChanges = Partial<{
  email: string;
  phone: string;
  religion: (typeof RELIGIONS)[number];
  marital_status: (typeof MARITAL_STATUSES)[number];
  dob: number;
  mob: number;
  yob: number;
  country_origin: string;
  state_origin: string | null;
  lga_origin: string | null;
}>;

export type BiodataResolution =
  { ok: true; changes: BiodataChanges } | { ok: false; fields: Record<string, string> };

/**
 * Merges a parsed form into the stored record and checks what only makes sense together:
 * - The birth date is checked whole (sent parts over stored ones): a real calendar date from
 *   1900 up to `today`.
 * - The place of origin is one answer: when any of country, state or LGA is sent, state and
 *   LGA are replaced by what was sent (blank clears them) and the country by the sent one or
 *   the stored one. For Nigeria the state must exist and the LGA must belong to it; for any
 *   other country they are free text.
 */
export function resolveBiodataUpdate(
  stored: StoredBiodata,
  form: BiodataForm,
  today: Date,
): BiodataResolution {
  const fields: Record<string, string> = {};
  const { dob, mob, yob, country_origin, state_origin, lga_origin, ...simple } = form;
  const changes: BiodataChanges = { ...simple };

  if (dob !== undefined || mob !== undefined || yob !== undefined) {
    const date = { dob: dob ?? stored.dob, mob: mob ?? stored.mob, yob: yob ?? stored.yob };
    const problem = birthDateProblem(date, today);
    if (problem) fields[problem.field] = problem.message;
    else Object.assign(changes, date);
  }

  if (country_origin !== undefined || state_origin !== undefined || lga_origin !== undefined) {
    const origin = resolveOrigin(country_origin ?? stored.country_origin, state_origin, lga_origin);
    if ("field" in origin) fields[origin.field] = origin.message;
    else Object.assign(changes, origin);
  }

  return Object.keys(fields).length > 0 ? { ok: false, fields } : { ok: true, changes };
}

type Problem = { field: string; message: string };
type BirthDate = { dob: number | null; mob: number | null; yob: number | null };

const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

function birthDateProblem({ dob, mob, yob }: BirthDate, today: Date): Problem | null {
  const whole = "Enter the day, month and year of birth together.";
  if (dob === null) return { field: "dob", message: whole };
  if (mob === null) return { field: "mob", message: whole };
  if (yob === null) return { field: "yob", message: whole };
  if (mob < 1 || mob > 12)
    return { field: "mob", message: "Enter the month of birth as a number from 1 to 12." };
  const thisYear = today.getFullYear();
  if (yob < 1900 || yob > thisYear) {
    return { field: "yob", message: `Enter a year of birth from 1900 to ${thisYear}.` };
  }
  const days = new Date(Date.UTC(yob, mob, 0)).getUTCDate();
  if (dob < 1 || dob > days) {
    return {
      field: "dob",
      message: `${dob}/${mob}/${yob} is not a real date: ${MONTHS[mob - 1]} ${yob} has ${days} days.`,
    };
  }
  if (!isRealBirthDate(dob, mob, yob, today)) {
    return { field: "yob", message: "The date of birth cannot be in the future." };
  }
  return null;
}

type Origin = { country_origin: string; state_origin: string | null; lga_origin: string | null };

function resolveOrigin(
  country: string | null,
  state: string | undefined,
  lga: string | undefined,
): Origin | Problem {
  if (!country) return { field: "country_origin", message: "Choose your country of origin first." };
  if (country !== NIGERIA) {
    return { country_origin: country, state_origin: state ?? null, lga_origin: lga ?? null };
  }
  if (state === undefined) {
    if (lga === undefined) return { country_origin: country, state_origin: null, lga_origin: null };
    return { field: "state_origin", message: "Choose the state your LGA is in." };
  }
  let found;
  try {
    found = findNigerianState(state);
  } catch (error) {
    if (error instanceof PlaceError) return { field: "state_origin", message: error.message };
    throw error;
  }
  if (lga === undefined)
    return { country_origin: country, state_origin: found.name, lga_origin: null };
  if (!isLgaOf(found.name, lga)) {
    return {
      field: "lga_origin",
      message: `"${lga}" is not an LGA of ${found.name}. Choose one from the list.`,
    };
  }
  const key = (name: string) => name.toLowerCase().replace(/[\s-]+/g, " ");
  const lgaName = found.lgas.find((candidate) => key(candidate) === key(lga)) ?? lga;
  return { country_origin: country, state_origin: found.name, lga_origin: lgaName };
}
