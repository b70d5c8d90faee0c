import { describe, expect, it } from "vitest";
import { isGsm7, smsSegments } from "./gsm7.ts";
import {
  deadlineReminderText,
  receiptText,
  registrationApprovedText,
  registrationReturnedText,
  resetCodeText,
  resultsPublishedText,
} from "./templates.ts";
import { PAYMENT_OPTIONS } from "../../common/payments/fee-status.ts";

// Every template, filled with the longest and the oddest values it can be given, is one GSM-7
// segment: a second segment is paid twice, and one character outside GSM-7 halves what fits.
const SEMESTERS = ["First Semester", "Second Semester"];
// The longest a deadline is written: a long month on a two-digit day.
const LONGEST_DEADLINE = "30 September 2025";
const LONGEST_REFERENCE = "CCE-20251231-ZZZZZZZZZZZZ";
const FILLED = {
  "reset code": ["000000", "999999", "123456"].map(resetCodeText),
  receipt: [
    ...PAYMENT_OPTIONS.map(({ label }) =>
      receiptText({
        amountKobo: 9_999_999_99,
        what: `${label}, 500 level, 2025/2026`,
        reference: LONGEST_REFERENCE,
      }),
    ),
    receiptText({ amountKobo: 500_000, what: "Transcript fee", reference: LONGEST_REFERENCE }),
  ],
  "registration approved": SEMESTERS.map((semester) =>
    registrationApprovedText(semester, "2025/2026"),
  ),
  "registration returned": SEMESTERS.map((semester) =>
    registrationReturnedText(semester, "2025/2026"),
  ),
  "results published": SEMESTERS.map((semester) => resultsPublishedText(semester, "2025/2026")),
  "deadline reminder": (["school_fee", "registration"] as const).flatMap((kind) =>
    [3, 1].map((days) => deadlineReminderText(kind, "2025/2026", LONGEST_DEADLINE, days)),
  ),
};

describe.each(Object.entries(FILLED))("the %s SMS", (_, texts) => {
  it.each(texts)("is one GSM-7 segment: %s", (text) => {
    expect(isGsm7(text)).toBe(true);
    expect(smsSegments(text)).toBe(1);
  });
});

describe("the reset code SMS", () => {
  it("starts with the code, so a phone can offer it to the form, and says how long it works", () => {
    expect(resetCodeText("042913")).toMatch(
      /^042913 is your Student Portal password code\. It works for 10 minutes\./,
    );
  });
});

describe("the receipt SMS", () => {
  it("names the amount in naira as NGN, what it paid for and the reference", () => {
    expect(
      receiptText({
        amountKobo: 4_500_000,
        what: "Full Payment, 200 level, 2024/2025",
        reference: "CCE-20250115-7K3QX9M2PZ4D",
      }),
    ).toBe(
      "Payment received: NGN 45,000.00 for Full Payment, 200 level, 2024/2025. Ref CCE-20250115-7K3QX9M2PZ4D. Your slip is on the portal. Student Portal",
    );
  });
});

describe("the deadline reminder SMS", () => {
  it.each([
    [
      "school_fee",
      3,
      "Reminder: the 2024/2025 school fee is due by 17 January 2025, in 3 days. Pay it on the portal before then. Student Portal",
    ],
    [
      "registration",
      1,
      "Reminder: course registration for 2024/2025 closes on 17 January 2025, tomorrow. Register your courses on the portal. Student Portal",
    ],
  ] as const)("names the %s deadline and how far off it is (%i days)", (kind, days, text) => {
    expect(deadlineReminderText(kind, "2024/2025", "17 January 2025", days)).toBe(text);
  });
});
