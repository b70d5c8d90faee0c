import { afterEach, describe, expect, it } from "vitest";
import { formatAmount, formatNaira, koboToNaira } from "./money.ts";
import { collegeDate, formatDeadline, formatHistoryDate, formatSlipDate } from "./dates.ts";

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

  it("gives each instant of one minute its own seconds", () => {
    expect(formatHistoryDate(new Date("2024-09-05T13:07:09.900Z"))).toBe("05-09-2024, 2:07:09 pm");
    expect(formatHistoryDate(new Date("2024-09-05T13:07:59.001Z"))).toBe("05-09-2024, 2:07:59 pm");
    expect(formatHistoryDate(new Date("2024-09-05T13:08:00.000Z"))).toBe("05-09-2024, 2:08:00 pm");
    expect(formatHistoryDate(new Date("2024-09-05T13:07:09.000Z"))).toBe("05-09-2024, 2:07:09 pm");
  });

  it("writes a transfer's deadline with noon and midnight as 12", () => {
    expect(formatDeadline("2024-09-05T11:05:00Z")).toBe("12:05 pm, 05-09-2024");
    expect(formatDeadline("2024-09-05T23:05:00Z")).toBe("12:05 am, 06-09-2024");
  });

  const serverZone = process.env.TZ;
  afterEach(() => {
    if (serverZone === undefined) delete process.env.TZ;
    else process.env.TZ = serverZone;
  });

  it("is Nigerian time on a server whose own zone changes its clocks", () => {
    process.env.TZ = "America/New_York";
    // The night New York moves its clocks forward: Lagos, which does not, is one hour ahead of UTC.
    expect(formatHistoryDate("2034-03-12T01:38:45Z")).toBe("12-03-2034, 2:38:45 am");
    expect(formatSlipDate("2034-03-12T06:59:00Z")).toBe("12/03/2034 07:59");
  });

  it("counts days in college time: 23:30 UTC is already the next day in Lagos", () => {
    expect(collegeDate(new Date("2025-10-31T23:30:00Z"))).toBe("2025-11-01");
  });

  it("turns the day at Lagos midnight, asked again and again around it", () => {
    expect(collegeDate(new Date("2025-10-31T22:59:59.999Z"))).toBe("2025-10-31");
    expect(collegeDate(new Date("2025-10-31T22:59:00.000Z"))).toBe("2025-10-31");
    expect(collegeDate(new Date("2025-10-31T23:00:00.000Z"))).toBe("2025-11-01");
    expect(collegeDate(new Date("2025-10-31T23:00:59.999Z"))).toBe("2025-11-01");
    expect(collegeDate(new Date("2025-10-31T22:59:30.000Z"))).toBe("2025-10-31");
  });

  it("shows a value that is not a date as before, without failing the page", () => {
    expect(formatSlipDate("not a date")).toBe("Invalid Date");
  });
});
