import { describe, expect, it } from "vitest";
import { entrySession } from "./accounts.ts";
import { chooseWithinCap } from "./journey.ts";

describe("chooseWithinCap", () => {
  const course = (code: string, unit: number | string) => ({ code, unit });

  it("ticks courses in the order listed while they fit, skipping one that would pass the cap", () => {
    const offered = [
      course("EDU 111", 30),
      course("EDU 112", 40),
      course("EDU 113", 20),
      course("EDU 114", 10),
    ];
    expect(chooseWithinCap(offered).map((c) => c.code)).toEqual(["EDU 111", "EDU 112", "EDU 114"]);
  });

  it("reads units sent as text, as the API sends them", () => {
    expect(
      chooseWithinCap([course("A", "3"), course("B", "78"), course("C", "1")], 80).map(
        (c) => c.code,
      ),
    ).toEqual(["A", "C"]);
  });
});

describe("entrySession", () => {
  it.each([
    [100, "2024/2025"],
    [200, "2023/2024"],
    [300, "2022/2023"],
  ])("a student at %i level in 2024/2025 entered in %s", (level, expected) => {
    expect(entrySession("2024/2025", level)).toBe(expected);
  });
});
