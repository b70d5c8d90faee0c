import { describe, expect, it } from "vitest";
import { createGate, type LineReport } from "./gate.ts";
import type { LineNumbers, WaitingLineStore } from "./line-store.ts";

/** The line as the database keeps it, in memory. */
function memoryStore(): WaitingLineStore & { numbers: LineNumbers } {
  const numbers: LineNumbers = { issuedThrough: 0, admittedThrough: 0, held: false };
  const exchanged = new Set<number>();
  return {
    numbers,
    join: async () => (numbers.issuedThrough += 1),
    read: async () => ({ ...numbers }),
    async admit(tickets) {
      if (!numbers.held)
        numbers.admittedThrough = Math.min(
          numbers.admittedThrough + tickets,
          numbers.issuedThrough,
        );
      return { ...numbers };
    },
    async exchange(ticket) {
      if (exchanged.has(ticket)) return false;
      exchanged.add(ticket);
      return true;
    },
  };
}

function setUp(options: { busy?: number | null; start?: number; min?: number } = {}) {
  let clock = 0;
  const store = memoryStore();
  const reports: LineReport[] = [];
  const gate = createGate({
    store,
    settings: {
      startPerSecond: options.start ?? 4,
      minPerSecond: options.min ?? 0.5,
      maxPerSecond: 50,
    },
    busyShare: () => options.busy ?? null,
    report: (report) => reports.push(report),
    now: () => clock,
  });
  return {
    gate,
    store,
    reports,
    /** One second on, with one request reaching the gate. */
    async second(answerTimes: number[] = []) {
      for (const time of answerTimes) gate.observeAnswer(time);
      clock += 1_000;
      return gate.current();
    },
  };
}

describe("the gate's share of admissions", () => {
  it("lets a second's worth of newcomers straight in, then starts a line", async () => {
    const { gate } = setUp({ start: 4 });
    await gate.current();
    const straightIn = Array.from({ length: 10 }, () => gate.takeFreePlace()).filter(Boolean);
    expect(straightIn).toHaveLength(4);
  });

  it("moves the line on by its share each second, never past the last ticket", async () => {
    const { gate, store, second } = setUp({ start: 4 });
    await gate.current();
    for (let i = 0; i < 10; i += 1) await gate.join();
    // This second's share, and the room newcomers did not take at the start.
    await second();
    expect(store.numbers.admittedThrough).toBe(8);
    for (let i = 0; i < 5; i += 1) await second();
    expect(store.numbers.admittedThrough).toBe(10);
  });

  it("shrinks its share while answers to students already in are slow, and grows it while quick", async () => {
    const { gate, second } = setUp({ start: 10 });
    await gate.current();
    // A line long enough to stand throughout: the share grows only while newcomers wait.
    for (let i = 0; i < 1_000; i += 1) await gate.join();
    for (let i = 0; i < 5; i += 1) await second(Array(20).fill(400));
    const slowed = gate.describe().admittingPerSecond;
    expect(slowed).toBeLessThan(10 * 0.98 ** 4);
    // The answer time is smoothed over a few seconds: quick again, the share grows once it is.
    for (let i = 0; i < 15; i += 1) await second(Array(20).fill(20));
    const settled = gate.describe().admittingPerSecond;
    for (let i = 0; i < 30; i += 1) await second(Array(20).fill(20));
    expect(gate.describe().admittingPerSecond).toBeGreaterThan(settled);
  });

  it("never lets its share fall below the floor, however slow the answers (WAITING_LINE_MIN_PER_SECOND)", async () => {
    const { gate, second } = setUp({ start: 10, min: 6 });
    await gate.current();
    for (let i = 0; i < 1_000; i += 1) await gate.join();
    for (let i = 0; i < 120; i += 1) await second(Array(20).fill(900));
    expect(gate.describe().admittingPerSecond).toBe(6);
  });

  it("does not grow its share while the machine's cores are nearly all busy, nor shrink it for that alone", async () => {
    const { gate, second } = setUp({ start: 10, busy: 0.99 });
    await gate.current();
    for (let i = 0; i < 100; i += 1) await gate.join();
    for (let i = 0; i < 5; i += 1) await second(Array(20).fill(20));
    expect(gate.describe().admittingPerSecond).toBe(10);
  });

  it("does not grow its share while no one is waiting for it", async () => {
    const { gate, second } = setUp({ start: 4 });
    await gate.current();
    for (let i = 0; i < 30; i += 1) await second(Array(20).fill(10));
    expect(gate.describe().admittingPerSecond).toBe(4);
  });

  it("estimates a wait from how fast the whole line moved, once it has watched long enough", async () => {
    const { gate, store, second } = setUp({ start: 2 });
    await gate.current();
    for (let i = 0; i < 200; i += 1) await gate.join();
    expect(gate.turnInSeconds(50)).toBeNull();
    // Another proxy moves the same line by 3 a second besides this one's 2.
    for (let i = 0; i < 30; i += 1) {
      store.numbers.admittedThrough += 3;
      await second(Array(20).fill(100));
    }
    const estimate = gate.turnInSeconds(50)!;
    expect(estimate).toBeGreaterThanOrEqual(9);
    expect(estimate).toBeLessThanOrEqual(11);
  });

  it("admits no one and lets no one straight in while the door is held", async () => {
    const { gate, store, second } = setUp({ start: 4 });
    store.numbers.held = true;
    await gate.current();
    expect(gate.takeFreePlace()).toBe(false);
    await gate.join();
    for (let i = 0; i < 5; i += 1) await second();
    expect(store.numbers.admittedThrough).toBe(0);
  });

  it("reports the line every ten seconds while it stands, and once when it is gone", async () => {
    const { gate, reports, second } = setUp({ start: 1 });
    await gate.current();
    for (let i = 0; i < 25; i += 1) await gate.join();
    // Answers neither slow nor quick: the share stays at one a second.
    for (let i = 0; i < 40; i += 1) await second(Array(20).fill(100));
    const whileStanding = reports.filter((report) => report.waiting > 0);
    expect(whileStanding.length).toBeGreaterThanOrEqual(2);
    expect(whileStanding.length).toBeLessThanOrEqual(4);
    expect(reports.at(-1)).toMatchObject({ waiting: 0 });
    expect(whileStanding[0]!.waiting).toBeGreaterThan(whileStanding.at(-1)!.waiting);
  });
});
