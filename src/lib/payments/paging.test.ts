import { describe, expect, it } from "vitest";
import { pageOf } from "./paging.ts";

const rows = Array.from({ length: 12 }, (_, i) => i + 1);

describe("pageOf", () => {
  it.each<[string | null, string | null, number[], number, number, number]>([
    [null, null, [1, 2, 3, 4, 5], 1, 5, 3],
    ["2", null, [6, 7, 8, 9, 10], 2, 5, 3],
    ["3", "5", [11, 12], 3, 5, 3],
    ["2", "10", [11, 12], 2, 10, 2],
    ["1", "25", rows, 1, 25, 1],
    ["1", "50", rows, 1, 50, 1],
    ["9", "5", [11, 12], 3, 5, 3],
    ["0", "5", [1, 2, 3, 4, 5], 1, 5, 3],
    ["-1", "7", [1, 2, 3, 4, 5], 1, 5, 3],
    ["two", "1e3", [1, 2, 3, 4, 5], 1, 5, 3],
  ])(
    "page %s size %s → %j (page %d of size %d, %d pages)",
    (page, size, expected, current, chosen, count) => {
      const result = pageOf(rows, page, size);
      expect(result).toEqual({
        rows: expected,
        page: current,
        size: chosen,
        pageCount: count,
        total: 12,
      });
    },
  );

  it("has one empty page when there is nothing", () => {
    expect(pageOf([], "3", "10")).toEqual({ rows: [], page: 1, size: 10, pageCount: 1, total: 0 });
  });
});
