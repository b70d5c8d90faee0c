import { describe, expect, it } from "vitest";
import { agree, countOf, singularOf } from "./count.ts";

describe("counts on staff pages", () => {
  it("say 1 complaint and 2 complaints", () => {
    expect(countOf(1, "complaint")).toBe("1 complaint");
    expect(countOf(0, "complaint")).toBe("0 complaints");
    expect(countOf(2, "faculty", "faculties")).toBe("2 faculties");
  });
  it("find the singular of every list noun the pager is given", () => {
    expect(
      [
        "complaints",
        "faculties",
        "mappings",
        "fees",
        "items",
        "students",
        "programmes",
        "announcements",
      ].map(singularOf),
    ).toEqual([
      "complaint",
      "faculty",
      "mapping",
      "fee",
      "item",
      "student",
      "programme",
      "announcement",
    ]);
  });
  it("agree the verb: 1 is marked, 2 are marked", () => {
    expect(`1 ${agree(1, "is", "are")} marked as graduating`).toBe("1 is marked as graduating");
    expect(`3 ${agree(3, "is", "are")} marked as graduating`).toBe("3 are marked as graduating");
  });
});
