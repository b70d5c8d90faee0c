import { describe, expect, it } from "vitest";
import { BiodataForm, resolveBiodataUpdate, type StoredBiodata } from "./biodata.ts";

const today = new Date(2025, 0, 15);

const stored: StoredBiodata = {
  dob: 14,
  mob: 6,
  yob: 2004,
  country_origin: "Nigeria",
  state_origin: "Anambra",
  lga_origin: "Onitsha North",
};

const parse = (input: Record<string, unknown>) => BiodataForm.safeParse(input);
const firstMessage = (input: Record<string, unknown>) =>
  parse(input).error?.issues.map((issue) => [issue.path.join("."), issue.message])[0];

describe("BiodataForm accepts and normalises", () => {
  it.each([
    { field: "email", input: "  Ada.Obi@Example.COM ", output: "ada.obi@example.com" },
    { field: "phone", input: "+234 803 123 4567", output: "08031234567" },
    { field: "phone", input: "0803-123-4567", output: "08031234567" },
    { field: "religion", input: "islam", output: "Islam" },
    { field: "religion", input: "Others", output: "Others" },
    { field: "marital_status", input: "Seperated", output: "Seperated" },
    { field: "marital_status", input: "separated", output: "Seperated" },
    { field: "marital_status", input: "MARRIED", output: "Married" },
    { field: "dob", input: "09", output: 9 },
    { field: "yob", input: " 2004 ", output: 2004 },
    { field: "country_origin", input: "ghana", output: "Ghana" },
    { field: "state_origin", input: " Lagos ", output: "Lagos" },
  ])("$field: $input → $output", ({ field, input, output }) => {
    expect(parse({ [field]: input }).data).toEqual({ [field]: output });
  });

  it.each([
    {
      case: "every field blank",
      input: { email: "", phone: " ", religion: "", dob: "", state_origin: "" },
    },
    { case: "no fields at all", input: {} },
  ])("$case as 'leave unchanged'", ({ input }) => {
    const result = parse(input);
    expect(result.success).toBe(true);
    expect(Object.values(result.data ?? {}).every((value) => value === undefined)).toBe(true);
  });
});

describe("BiodataForm refuses with a message per field", () => {
  it.each([
    { field: "email", input: "not-an-email", message: "Enter a valid e-mail address." },
    { field: "email", input: `${"a".repeat(250)}@x.ng`, message: "Enter a valid e-mail address." },
    {
      field: "phone",
      input: "0703",
      message: "Enter a Nigerian mobile number such as 08031234567.",
    },
    {
      field: "phone",
      input: "+447911123456",
      message: "Enter a Nigerian mobile number such as 08031234567.",
    },
    {
      field: "religion",
      input: "Atheism",
      message: "Choose a religion from the list: Christianity, Islam or Others.",
    },
    {
      field: "marital_status",
      input: "Divorced",
      message: "Choose a marital status from the list: Single, Married or Seperated.",
    },
    { field: "dob", input: "1.5", message: "Enter the day of birth as a number, such as 14." },
    { field: "mob", input: "June", message: "Enter the month of birth as a number from 1 to 12." },
    { field: "yob", input: "-2004", message: "Enter the year of birth as a four-digit number." },
    { field: "yob", input: "20045", message: "Enter the year of birth as a four-digit number." },
    {
      field: "country_origin",
      input: "Wakanda",
      message: "Choose your country of origin from the list.",
    },
    { field: "state_origin", input: "x".repeat(101), message: "The state of origin is too long." },
    { field: "lga_origin", input: "x".repeat(300), message: "The LGA of origin is too long." },
    {
      field: "phone",
      input: 8031234567,
      message: "Enter a Nigerian mobile number such as 08031234567.",
    },
  ])("$field: $input", ({ field, input, message }) => {
    expect(firstMessage({ [field]: input })).toEqual([field, message]);
  });
});

const resolve = (input: Record<string, unknown>, record: StoredBiodata = stored) =>
  resolveBiodataUpdate(record, BiodataForm.parse(input), today);

describe("resolveBiodataUpdate: the birth date is checked whole", () => {
  it.each([
    {
      case: "a full new date",
      input: { dob: "29", mob: "2", yob: "2004" },
      date: { dob: 29, mob: 2, yob: 2004 },
    },
    {
      case: "only the day, over the stored month and year",
      input: { dob: "30" },
      date: { dob: 30, mob: 6, yob: 2004 },
    },
    {
      case: "today itself",
      input: { dob: "15", mob: "1", yob: "2025" },
      date: { dob: 15, mob: 1, yob: 2025 },
    },
  ])("accepts $case", ({ input, date }) => {
    expect(resolve(input)).toEqual({ ok: true, changes: date });
  });

  it.each([
    {
      case: "31 April",
      input: { dob: "31", mob: "4", yob: "2004" },
      field: "dob",
      message: "31/4/2004 is not a real date: April 2004 has 30 days.",
    },
    {
      case: "29 February 2023",
      input: { dob: "29", mob: "2", yob: "2023" },
      field: "dob",
      message: "29/2/2023 is not a real date: February 2023 has 28 days.",
    },
    {
      case: "day 0",
      input: { dob: "0" },
      field: "dob",
      message: "0/6/2004 is not a real date: June 2004 has 30 days.",
    },
    {
      case: "31 over a stored June",
      input: { dob: "31" },
      field: "dob",
      message: "31/6/2004 is not a real date: June 2004 has 30 days.",
    },
    {
      case: "month 13",
      input: { mob: "13" },
      field: "mob",
      message: "Enter the month of birth as a number from 1 to 12.",
    },
    {
      case: "month 0",
      input: { mob: "0" },
      field: "mob",
      message: "Enter the month of birth as a number from 1 to 12.",
    },
    {
      case: "year 1899",
      input: { yob: "1899" },
      field: "yob",
      message: "Enter a year of birth from 1900 to 2025.",
    },
    {
      case: "a year ahead",
      input: { yob: "2026" },
      field: "yob",
      message: "Enter a year of birth from 1900 to 2025.",
    },
    {
      case: "tomorrow",
      input: { dob: "16", mob: "1", yob: "2025" },
      field: "yob",
      message: "The date of birth cannot be in the future.",
    },
  ])("refuses $case", ({ input, field, message }) => {
    expect(resolve(input)).toEqual({ ok: false, fields: { [field]: message } });
  });

  it("refuses part of a date when the record has no date to complete it", async () => {
    const empty = { ...stored, dob: null, mob: null, yob: null };
    expect(resolve({ dob: "3", yob: "2001" }, empty)).toEqual({
      ok: false,
      fields: { mob: "Enter the day, month and year of birth together." },
    });
  });
});

describe("resolveBiodataUpdate: the place of origin is one answer", () => {
  it.each([
    {
      case: "a Nigerian state and its LGA, in canonical spelling",
      input: { country_origin: "nigeria", state_origin: "lagos", lga_origin: "ibeju lekki" },
      origin: { country_origin: "Nigeria", state_origin: "Lagos", lga_origin: "Ibeju-Lekki" },
    },
    {
      case: "an FCT alias",
      input: { state_origin: "f.c.t", lga_origin: "Gwagwalada" },
      origin: {
        country_origin: "Nigeria",
        state_origin: "Federal Capital Territory",
        lga_origin: "Gwagwalada",
      },
    },
    {
      case: "a state alone, clearing the old LGA",
      input: { state_origin: "Kano" },
      origin: { country_origin: "Nigeria", state_origin: "Kano", lga_origin: null },
    },
    {
      case: "another country, clearing the Nigerian state and LGA",
      input: { country_origin: "Ghana" },
      origin: { country_origin: "Ghana", state_origin: null, lga_origin: null },
    },
    {
      case: "another country with its own region as free text",
      input: {
        country_origin: "Ghana",
        state_origin: "Ashanti",
        lga_origin: "Kumasi Metropolitan",
      },
      origin: {
        country_origin: "Ghana",
        state_origin: "Ashanti",
        lga_origin: "Kumasi Metropolitan",
      },
    },
  ])("accepts $case", ({ input, origin }) => {
    expect(resolve(input)).toEqual({ ok: true, changes: origin });
  });

  it.each([
    {
      case: "an unknown state",
      input: { state_origin: "Wakanda" },
      field: "state_origin",
      message: '"Wakanda" is not a Nigerian state. Choose one from the list.',
    },
    {
      case: "an LGA of another state",
      input: { state_origin: "Lagos", lga_origin: "Onitsha North" },
      field: "lga_origin",
      message: '"Onitsha North" is not an LGA of Lagos. Choose one from the list.',
    },
    {
      case: "an LGA that does not exist",
      input: { state_origin: "Anambra", lga_origin: "Atlantis" },
      field: "lga_origin",
      message: '"Atlantis" is not an LGA of Anambra. Choose one from the list.',
    },
    {
      case: "an LGA without a state",
      input: { lga_origin: "Ikeja" },
      field: "state_origin",
      message: "Choose the state your LGA is in.",
    },
  ])("refuses $case", ({ input, field, message }) => {
    expect(resolve(input)).toEqual({ ok: false, fields: { [field]: message } });
  });

  it("refuses a state when neither the form nor the record has a country", async () => {
    const nowhere = { ...stored, country_origin: null, state_origin: null, lga_origin: null };
    expect(resolve({ state_origin: "Lagos" }, nowhere)).toEqual({
      ok: false,
      fields: { country_origin: "Choose your country of origin first." },
    });
  });

  it("reports every field at fault at once and changes nothing", async () => {
    expect(resolve({ dob: "31", mob: "4", state_origin: "Wakanda", phone: "08031234567" })).toEqual(
      {
        ok: false,
        fields: {
          dob: "31/4/2004 is not a real date: April 2004 has 30 days.",
          state_origin: '"Wakanda" is not a Nigerian state. Choose one from the list.',
        },
      },
    );
  });

  it("leaves the place alone when none of its parts is sent", async () => {
    expect(resolve({ religion: "Islam" })).toEqual({ ok: true, changes: { religion: "Islam" } });
  });
});
