import { describe, expect, it } from "vitest";
import { arrivalOffsets, withBurst } from "./schedule.ts";

const MINUTE = 60_000;
const within = (offsets: number[], from: number, to: number) =>
  offsets.filter((t) => t >= from && t < to).length;

describe("arrivalOffsets", () => {
  it.each(["deadline", "flat"] as const)(
    "places every student once, in order, inside the run (%s)",
    (shape) => {
      const offsets = arrivalOffsets(1_000, 10 * MINUTE, shape);
      expect(offsets).toHaveLength(1_000);
      expect(offsets).toEqual([...offsets].sort((a, b) => a - b));
      expect(offsets[0]).toBeGreaterThan(0);
      expect(offsets.at(-1)).toBeLessThan(10 * MINUTE);
    },
  );

  it("crowds a deadline's arrivals towards its end: five in nine in the last third", () => {
    const offsets = arrivalOffsets(9_000, 9 * MINUTE, "deadline");
    expect(within(offsets, 0, 3 * MINUTE)).toBe(1_000);
    expect(within(offsets, 3 * MINUTE, 6 * MINUTE)).toBe(3_000);
    expect(within(offsets, 6 * MINUTE, 9 * MINUTE)).toBe(5_000);
  });

  it("ends a deadline at twice the average rate", () => {
    const offsets = arrivalOffsets(10_000, 10 * MINUTE, "deadline");
    const lastMinute = within(offsets, 9 * MINUTE, 10 * MINUTE);
    // Rate ∝ t: the last tenth of the time takes 1 − 0.9² = 19 % of the students.
    expect(lastMinute).toBe(1_900);
  });

  it("spreads flat arrivals evenly", () => {
    const offsets = arrivalOffsets(600, 10 * MINUTE, "flat");
    for (let minute = 0; minute < 10; minute++)
      expect(within(offsets, minute * MINUTE, (minute + 1) * MINUTE)).toBe(60);
  });
});

describe("withBurst", () => {
  it("adds every student of the burst within the run's last second, in order among the others", () => {
    const arrivals = arrivalOffsets(200, 0.5 * MINUTE, "deadline");
    const offsets = withBurst(arrivals, 60, 0.5 * MINUTE);
    expect(offsets).toHaveLength(260);
    expect(offsets).toEqual([...offsets].sort((a, b) => a - b));
    const lastSecond = 0.5 * MINUTE - 1_000;
    expect(within(offsets, lastSecond, 0.5 * MINUTE)).toBe(
      within(arrivals, lastSecond, 0.5 * MINUTE) + 60,
    );
    expect(offsets.at(-1)).toBeLessThan(0.5 * MINUTE);
  });

  it("leaves the arrivals as they are without a burst", () => {
    const arrivals = arrivalOffsets(10, MINUTE, "flat");
    expect(withBurst(arrivals, 0, MINUTE)).toEqual(arrivals);
  });
});
