import { describe, expect, it } from "vitest";
import { sessionShown } from "./semester-choice.ts";

const choices = { sessions: ["2025/2026", "2024/2025", "2023/2024"], current: "2024/2025" };

describe("the session an exams office page shows", () => {
  it("is the one asked for when the college has it", () => {
    expect(sessionShown("2023/2024", choices)).toEqual({ session: "2023/2024", unknown: null });
  });

  it("is the current one when none is asked for, else the newest", () => {
    expect(sessionShown("", choices)).toEqual({ session: "2024/2025", unknown: null });
    expect(sessionShown("", { ...choices, current: null })).toEqual({
      session: "2025/2026",
      unknown: null,
    });
    expect(sessionShown("", { sessions: [], current: null })).toEqual({
      session: "",
      unknown: null,
    });
  });

  it("names a session asked for that the college does not have", () => {
    expect(sessionShown("1999/2000", choices)).toEqual({
      session: "2024/2025",
      unknown: "1999/2000",
    });
  });
});
