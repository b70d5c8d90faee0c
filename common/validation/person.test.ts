import { describe, expect, it } from "vitest";
import {
  EmailAddress,
  ImportedPhone,
  isRealBirthDate,
  NigerianPhone,
  normalizeNigerianPhone,
} from "./person.ts";

const TODAY = new Date(2025, 5, 15); // 15 June 2025, local time

describe("isRealBirthDate", () => {
  it.each([
    ["29 Feb 2024 (leap year)", 29, 2, 2024, true],
    ["29 Feb 2000 (leap century)", 29, 2, 2000, true],
    ["29 Feb 2023", 29, 2, 2023, false],
    ["29 Feb 1900 (not a leap year)", 29, 2, 1900, false],
    ["31 April", 31, 4, 2001, false],
    ["30 April", 30, 4, 2001, true],
    ["31 December", 31, 12, 2001, true],
    ["month 13", 1, 13, 2001, false],
    ["month 0", 1, 0, 2001, false],
    ["day 0", 0, 5, 2001, false],
    ["day 32", 32, 1, 2001, false],
    ["fractional day", 1.5, 5, 2001, false],
    ["NaN year", 1, 5, Number.NaN, false],
    ["1 January 1900", 1, 1, 1900, true],
    ["31 December 1899", 31, 12, 1899, false],
    ["today", 15, 6, 2025, true],
    ["tomorrow", 16, 6, 2025, false],
    ["later this year", 1, 12, 2025, false],
    ["next year", 1, 1, 2026, false],
  ])("%s → %s", (_, day, month, year, expected) => {
    expect(isRealBirthDate(day, month, year, TODAY)).toBe(expected);
  });

  it("measures against the real clock when no date is given", () => {
    const now = new Date();
    expect(isRealBirthDate(now.getDate(), now.getMonth() + 1, now.getFullYear())).toBe(true);
    expect(isRealBirthDate(1, 1, now.getFullYear() + 1)).toBe(false);
  });
});

describe("normalizeNigerianPhone", () => {
  it.each([
    ["08031234567", "08031234567"],
    ["0803 123 4567", "08031234567"],
    ["+2348031234567", "08031234567"],
    ["2348031234567", "08031234567"],
    ["0803-123-4567", "08031234567"],
    ["+234 803 123 4567", "08031234567"],
    [" (0803) 123.4567 ", "08031234567"],
    ["07011234567", "07011234567"],
    ["07091234567", "07091234567"],
    ["08101234567", "08101234567"],
    ["09031234567", "09031234567"],
    ["+2349121234567", "09121234567"],
  ])("%j → %s", (input, expected) => {
    expect(normalizeNigerianPhone(input)).toBe(expected);
  });

  it.each([
    ["too short", "0803123456"],
    ["too long", "080312345678"],
    ["letters", "0803ABC4567"],
    ["unused prefix 060", "06031234567"],
    ["unused prefix 071", "07131234567"],
    ["landline", "012345678"],
    ["British number", "+447911123456"],
    ["country code with trunk zero", "+23408031234567"],
    ["plus without country code", "+08031234567"],
    ["empty", ""],
  ])("rejects %s (%j)", (_, input) => {
    expect(normalizeNigerianPhone(input)).toBeNull();
  });
});

describe("NigerianPhone", () => {
  it.each(["0803 123 4567", "+2348031234567"])("parses %j to the local form", (input) => {
    expect(NigerianPhone.parse(input)).toBe("08031234567");
  });

  // "8031234567" is what a spreadsheet leaves of 08031234567; a person typing it has left out a digit.
  it.each(["06031234567", "", 8031234567, "8031234567", null])(
    "rejects %j with a helpful message",
    (input) => {
      const result = NigerianPhone.safeParse(input);
      expect(result.success).toBe(false);
      expect(result.error?.issues.map((issue) => issue.message)).toEqual([
        "Enter a Nigerian mobile number such as 08031234567.",
      ]);
    },
  );
});

describe("ImportedPhone", () => {
  it.each([
    ["8031234567", "08031234567"],
    ["7011234567", "07011234567"],
    ["8101234567", "08101234567"],
    ["9031234567", "09031234567"],
    ["9121234567", "09121234567"],
    [" 8031234567 ", "08031234567"],
    ["08031234567", "08031234567"],
    ["+234 803 123 4567", "08031234567"],
    ["2348031234567", "08031234567"],
  ])("reads %j as %s", (input, expected) => {
    expect(ImportedPhone.parse(input)).toBe(expected);
  });

  it.each(["6031234567", "7131234567", "803123456", "80312345678", "0803123456"])(
    "refuses %j as any form would",
    (input) => {
      expect(ImportedPhone.safeParse(input).error?.issues[0]?.message).toBe(
        "Enter a Nigerian mobile number such as 08031234567.",
      );
    },
  );

  it.each(["2.34803E+12", "8.03123E+09", "2.34803e+12", "2E+12"])(
    "says how to fix %j, a number the spreadsheet rounded",
    (input) => {
      expect(ImportedPhone.safeParse(input).error?.issues[0]?.message).toBe(
        `The spreadsheet turned this phone number into ${input} and lost its last digits. Format the phone column as Text, type the numbers again and save the file.`,
      );
    },
  );
});

describe("EmailAddress", () => {
  it.each([
    ["ada@example.com", "ada@example.com"],
    ["  Ada.Obi@Example.COM ", "ada.obi@example.com"],
    ["student+fees@coe.edu.ng", "student+fees@coe.edu.ng"],
  ])("parses %j to %s", (input, expected) => {
    expect(EmailAddress.parse(input)).toBe(expected);
  });

  // 64-character local part and 63-character labels: the longest pieces the RFCs allow.
  const addressOfLength = (length: number) =>
    `${"a".repeat(64)}@${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(length - 196)}.ng`;
  const longest = addressOfLength(254);

  it("accepts an address of exactly 254 characters", () => {
    expect(longest).toHaveLength(254);
    expect(EmailAddress.parse(longest)).toBe(longest);
  });

  it.each([
    ["missing domain", "ada@"],
    ["missing @", "ada.example.com"],
    ["missing top-level domain", "ada@example"],
    ["space inside", "ada obi@example.com"],
    ["two @", "ada@@example.com"],
    ["empty", ""],
    ["blank", "   "],
    ["255 characters", addressOfLength(255)],
    ["not a string", 42],
  ])("rejects %s", (_, input) => {
    const result = EmailAddress.safeParse(input);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe("Enter a valid e-mail address.");
  });
});
