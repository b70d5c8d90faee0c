import { describe, expect, it } from "vitest";
import { registrationStatus, semesterNumber, totalUnits } from "./registration-status.ts";

describe("registrationStatus (dashboard card, spec section 4)", () => {
  it.each([
    [[], "NO"],
    [[{ semester: 1 }], "Started"],
    [[{ semester: "first" }, { semester: "1" }], "Started"],
    [[{ semester: 1 }, { semester: 2 }], "Completed"],
    [[{ semester: "first" }, { semester: "second" }], "Completed"],
    [[{ semester: 2 }], ""],
    [[{ semester: "third" }], "NO"],
  ])("%j → %j", (courses, expected) => {
    expect(registrationStatus(courses)).toBe(expected);
  });
});

describe("semesterNumber", () => {
  it.each([
    [1, 1],
    ["1", 1],
    ["first", 1],
    [" FIRST ", 1],
    [2, 2],
    ["second", 2],
    [3, null],
    ["", null],
  ])("%j → %j", (value, expected) => {
    expect(semesterNumber(value)).toBe(expected);
  });
});

describe("totalUnits", () => {
  it.each([
    [[], 0],
    [[{ unit: "3" }, { unit: "2" }], 5],
    [[{ unit: 4 }, { unit: "4" }], 8],
  ])("%j → %d", (courses, expected) => {
    expect(totalUnits(courses)).toBe(expected);
  });
});
