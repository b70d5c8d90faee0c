import { describe, expect, it } from "vitest";
import { describeWait, expectedWaitSeconds, refreshSeconds, waitingPage } from "./waiting-page.ts";

describe("the waiting page's timing", () => {
  it("refreshes every eighth of the wait, between 3 and 30 seconds, and every 5 while unmeasured", () => {
    expect(refreshSeconds(null)).toBe(5);
    expect(refreshSeconds(4)).toBe(3);
    expect(refreshSeconds(80)).toBe(10);
    expect(refreshSeconds(3_600)).toBe(30);
  });

  it("tells the wait until the page notices the turn: the first refresh at least, half a refresh after the turn on average", () => {
    expect(expectedWaitSeconds(1, refreshSeconds(1))).toBe(3);
    expect(expectedWaitSeconds(80, refreshSeconds(80))).toBe(85);
    expect(expectedWaitSeconds(600, refreshSeconds(600))).toBe(615);
  });

  it("says the wait in words a student reads at a glance", () => {
    expect(describeWait(null)).toMatch(/still measuring/);
    expect(describeWait(45)).toBe("Estimated wait: less than a minute.");
    expect(describeWait(61)).toBe("Estimated wait: about 1 minute.");
    expect(describeWait(725)).toBe("Estimated wait: about 12 minutes.");
    expect(describeWait(2 * 3_600 + 5 * 60)).toBe("Estimated wait: about 2 hours 5 minutes.");
  });

  it("keeps the page under 5 KiB with a place in the hundred thousands and a long address", () => {
    const page = waitingPage({
      place: 123_456,
      waitSeconds: 7_200,
      refreshSeconds: 30,
      refreshTo: `/login?next=${encodeURIComponent("/course-reg?".padEnd(200, "x"))}`,
    });
    expect(new TextEncoder().encode(page).length).toBeLessThan(5 * 1024);
    expect(page).toContain("Your place: 123,456");
  });
});
