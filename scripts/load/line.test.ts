import { describe, expect, it } from "vitest";
import { lineCheck, lineParagraph, studentsCsv, summariseLine } from "./line.ts";
import type { LineEpisode, StudentRecord } from "./waiting-page.ts";

const T0 = Date.UTC(2026, 10, 28, 9);
const s = (seconds: number) => T0 + seconds * 1000;

/** A student who met the line `at` seconds in, shown `estimate` then, and let in `waited` seconds later. */
function waited(
  id: number,
  at: number,
  estimate: number | null,
  waitedSeconds: number | null,
  more: Partial<LineEpisode> = {},
): StudentRecord {
  return {
    studentId: id,
    arrivedAt: s(at),
    line: {
      firstPageAt: s(at),
      firstPageEstimateSeconds: estimate,
      firstEstimate: estimate === null ? null : { seconds: estimate, shownAt: s(at) },
      firstPlace: id,
      maxPlace: id,
      lastPlace: 1,
      pages: 3,
      admittedAt: waitedSeconds === null ? null : s(at + waitedSeconds),
      ...more,
    },
    timesInLine: 1,
    admitted: waitedSeconds !== null,
    finished: waitedSeconds !== null,
    lost: null,
  };
}

const straightIn = (id: number, at: number): StudentRecord => ({
  studentId: id,
  arrivedAt: s(at),
  line: null,
  timesInLine: 0,
  admitted: true,
  finished: true,
  lost: null,
});

describe("summariseLine", () => {
  it("counts who waited, the longest line, and the waits of those let in", () => {
    const summary = summariseLine([
      straightIn(1, 0),
      waited(12, 10, null, 20),
      waited(30, 11, 40, 40),
      waited(7, 12, 30, 60),
    ]);
    expect(summary).toMatchObject({
      students: 4,
      waited: 3,
      admitted: 3,
      finished: 3,
      lost: 0,
      maxPlace: 30,
      wait: { p50: 40, p90: 60, max: 60 },
    });
  });

  it("judges only estimates first shown after the line's first minute, against the wait from when each was shown", () => {
    const summary = summariseLine([
      // The line starts here: its first minute is not judged, however wrong.
      waited(1, 0, 10, 200),
      waited(2, 59, 10, 200),
      // Within ±25 %: 100 s shown, 75 s and 125 s waited.
      waited(3, 60, 100, 75),
      waited(4, 61, 100, 125),
      // Outside: 126 s and 74 s.
      waited(5, 62, 100, 126),
      waited(6, 63, 100, 74),
      // Shown no estimate on the first page; the first one shown came 30 s later and is judged from then.
      waited(7, 70, null, 130, { firstEstimate: { seconds: 100, shownAt: s(100) } }),
      // Never let in: not judged.
      waited(8, 80, 100, null),
    ]);
    expect(summary.honesty).toEqual({ judged: 5, honest: 3 });
    expect(summary.admitted).toBe(7);
  });

  it("says so when nobody met the line", () => {
    const summary = summariseLine([straightIn(1, 0), straightIn(2, 1)]);
    expect(summary).toMatchObject({ waited: 0, maxPlace: null, wait: null });
    expect(lineParagraph(summary)).toBe("The line at the door: no student met it.");
  });
});

describe("lineParagraph", () => {
  it("gives the line's size, waits and the estimates' honesty against the target", () => {
    const records = [waited(1, 0, 10, 12), ...[2, 3, 4, 5].map((id) => waited(id, 61, 100, 110))];
    records.push(waited(6, 62, 100, 200));
    const text = lineParagraph(summariseLine(records));
    expect(text).toContain(
      "The line at the door: 6 of 6 students waited in it, the longest line seen was 6; 6 were let in, 6 of them went through to the end, 0 were lost by the line.",
    );
    expect(text).toContain("p50 110.0 s, p90 200.0 s, max 200.0 s");
    expect(text).toContain("4 of 5 (80 %) came true within ±25 % (target ≥ 90 %: missed).");
  });
});

describe("lineCheck", () => {
  it("passes a burst whose line formed and drained with no failed request", () => {
    const check = lineCheck([straightIn(1, 0), waited(2, 1, 10, 12)], 0);
    expect(check).toMatchObject({ ok: true });
    expect(check.detail).toBe(
      "1 waited (longest line 2), 1 let in, 1 went through to the end, 0 lost; 0 failed requests in the run",
    );
  });

  it("fails when no line formed", () => {
    expect(lineCheck([straightIn(1, 0)], 0)).toMatchObject({
      ok: false,
      detail: "no student met the line",
    });
  });

  it("fails when someone in line was not let in, or did not finish, or a request failed", () => {
    expect(lineCheck([waited(2, 1, 10, null)], 0)).toMatchObject({ ok: false });
    expect(lineCheck([{ ...waited(2, 1, 10, 12), finished: false }], 0).detail).toContain(
      "not through: students 2",
    );
    expect(lineCheck([waited(2, 1, 10, 12)], 1)).toMatchObject({ ok: false });
  });

  it("fails when the line lost a student", () => {
    const lost = { ...waited(2, 1, 10, null), lost: "lost by the line: place 3, then 40" };
    expect(lineCheck([lost, waited(3, 1, 10, 12)], 1)).toMatchObject({ ok: false });
  });
});

describe("studentsCsv", () => {
  it("writes a row per student in order of arrival, times in seconds from the first arrival", () => {
    const lost = {
      ...waited(9, 5, null, null),
      finished: false,
      lost: "lost by the line: place 3, then 40",
    };
    expect(studentsCsv([waited(2, 1.5, 30, 28.25), straightIn(1, 0), lost]).split("\n")).toEqual([
      "student_id,arrived_s,first_waiting_page_s,first_page_estimate_s,first_estimate_s,first_estimate_shown_s,actual_wait_s,max_place,times_in_line,admitted,finished,lost",
      "1,0.0,,,,,,,0,yes,yes,",
      "2,1.5,1.5,30,30,1.5,28.3,2,1,yes,yes,",
      '9,5.0,5.0,,,,,9,1,no,no,"lost by the line: place 3, then 40"',
      "",
    ]);
  });
});
