import { describe, expect, it } from "vitest";
import { returnRefusal, windowRefusal, windowState } from "./registration-window.ts";

const session = (courseModifiable: boolean, opens: string | null, closes: string | null) => ({
  name: "2025/2026",
  courseModifiable,
  registrationOpensOn: opens,
  registrationClosesOn: closes,
});

describe("the registration window", () => {
  it.each([
    [session(false, null, null), "2025-10-01", "closed"],
    [session(true, null, null), "2025-10-01", "open"],
    [session(true, "2025-10-01", "2025-10-31"), "2025-09-30", "not-yet-open"],
    [session(true, "2025-10-01", "2025-10-31"), "2025-10-01", "open"],
    [session(true, "2025-10-01", "2025-10-31"), "2025-10-31", "open"],
    [session(true, "2025-10-01", "2025-10-31"), "2025-11-01", "ended"],
    [session(false, "2025-10-01", "2025-10-31"), "2025-10-15", "closed"],
    [session(true, null, "2025-10-31"), "2025-01-01", "open"],
  ] as const)("%j on %s is %s", (window, today, state) => {
    expect(windowState(window, today)).toBe(state);
  });

  it("tells the student the day it opens or closed", () => {
    expect(windowRefusal(session(true, "2025-10-01", null), "2025-09-01")).toBe(
      "Course registration for 2025/2026 opens on 1 October 2025. Please come back then.",
    );
    expect(windowRefusal(session(true, null, "2025-10-31"), "2025-11-01")).toContain(
      "closed on 31 October 2025",
    );
  });

  it.each([
    [
      session(false, null, null),
      "2025-10-15",
      "is closed, so the student could not change the semester. Approve it, or ask the registry to reopen the session.",
    ],
    [
      session(true, "2025-10-01", null),
      "2025-09-30",
      "opens on 1 October 2025, so the student could not change the semester before then. Return it from that day, or approve it.",
    ],
    [
      session(true, null, "2025-10-31"),
      "2025-11-01",
      "closed on 31 October 2025, so the student could not change the semester. Approve it, or ask the registry to extend the closing date.",
    ],
  ] as const)("tells an adviser why %j cannot be returned on %s", (window, today, reason) => {
    expect(returnRefusal(window, today)).toBe(`Course registration for 2025/2026 ${reason}`);
  });

  it("lets an adviser return on the first and the last day, as the student may register then", () => {
    expect(returnRefusal(session(true, "2025-10-01", "2025-10-31"), "2025-10-01")).toBeNull();
    expect(returnRefusal(session(true, "2025-10-01", "2025-10-31"), "2025-10-31")).toBeNull();
  });
});
