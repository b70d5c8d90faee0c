import { describe, expect, it } from "vitest";
import { formatAmount, formatNaira, koboToNaira } from "./money.ts";
import { formatHistoryDate, formatSlipDate } from "./dates.ts";

describe("naira with comma grouping", () => {
  it.each([
    [0, "₦0"],
    [500, "₦500"],
    [5000, "₦5,000"],
    [85000, "₦85,000"],
    [1234567.5, "₦1,234,567.5"],
    [150000.25, "₦150,000.25"],
  ])("%d → %s", (naira, text) => {
    expect(formatNaira(naira)).toBe(text);
  });

  it("converts kobo to naira exactly", () => {
    expect(koboToNaira(8_500_000)).toBe(85_000);
    expect(formatAmount(koboToNaira(12_345_678))).toBe("123,456.78");
  });
});

describe("dates in Nigerian time", () => {
  it.each([
    ["2024-09-05T13:07:09Z", "05-09-2024, 2:07:09 pm", "05/09/2024 14:07"],
    ["2025-01-31T23:30:00Z", "01-02-2025, 12:30:00 am", "01/02/2025 00:30"],
  ])("%s", (iso, history, slip) => {
    expect(formatHistoryDate(iso)).toBe(history);
    expect(formatSlipDate(iso)).toBe(slip);
  });
});
