import { describe, expect, it } from "vitest";
import { lateFeeRefusal } from "./late-fees.ts";

describe("late fees apply only from the session's late-fees day", () => {
  it("refuses the day before", () => {
    expect(lateFeeRefusal("2024/2025", "2025-03-01", "2025-02-28")).toContain(
      "apply from 1 March 2025",
    );
  });
  it("refuses when the session has no late-fees day", () => {
    expect(lateFeeRefusal("2024/2025", null, "2025-02-28")).toContain(
      "No late fee applies in 2024/2025",
    );
  });
  it.each([
    ["the day itself", "2025-03-01"],
    ["after it", "2025-06-30"],
  ])("allows %s", (_case, today) => {
    expect(lateFeeRefusal("2024/2025", "2025-03-01", today)).toBeNull();
  });
});
