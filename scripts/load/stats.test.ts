import { describe, expect, it } from "vitest";
import { percentile, StepRecorder, stepTable } from "./stats.ts";

describe("percentile", () => {
  const hundred = Array.from({ length: 100 }, (_, i) => i + 1);

  it.each([
    [50, 50],
    [95, 95],
    [99, 99],
    [100, 100],
    [0, 1],
  ])("p%i of 1..100 is %i", (p, expected) => {
    expect(percentile(hundred, p)).toBe(expected);
  });

  it("answers a value some request really took (nearest rank, no interpolation)", () => {
    expect(percentile([10, 20, 30_000], 50)).toBe(20);
    expect(percentile([10, 20, 30_000], 99)).toBe(30_000);
    expect(percentile([7], 99)).toBe(7);
  });

  it("answers 0 for no values", () => {
    expect(percentile([], 95)).toBe(0);
  });
});

describe("StepRecorder", () => {
  it("summarises each step in the order first seen, counting failures and their latency", () => {
    const recorder = new StepRecorder();
    for (let ms = 1; ms <= 100; ms++) recorder.record("dashboard", ms);
    recorder.record("sign in", 300);
    recorder.record("sign in", 30_000, "timed out");
    recorder.record("sign in", 200, "HTTP 429");
    recorder.record("sign in", 31_000, "timed out");

    expect(recorder.summaries()).toEqual([
      {
        step: "dashboard",
        count: 100,
        errors: 0,
        busy: 0,
        retried: 0,
        waiting: 0,
        p50: 50,
        p95: 95,
        p99: 99,
        max: 100,
      },
      {
        step: "sign in",
        count: 4,
        errors: 3,
        busy: 0,
        retried: 0,
        waiting: 0,
        p50: 300,
        p95: 31_000,
        p99: 31_000,
        max: 31_000,
      },
    ]);
    expect(recorder.requests).toBe(104);
    expect(recorder.failures).toBe(3);
    expect(recorder.errorReasons()).toEqual([
      ["sign in: timed out", 2],
      ["sign in: HTTP 429", 1],
    ]);
  });

  it("counts busy answers apart: the step is recorded once, when it ends, not as an error", () => {
    const recorder = new StepRecorder();
    recorder.recordBusy("quote");
    recorder.recordBusy("quote");
    recorder.record("quote", 12_000);
    expect(recorder.summaries()).toEqual([
      {
        step: "quote",
        count: 1,
        errors: 0,
        busy: 2,
        retried: 0,
        waiting: 0,
        p50: 12_000,
        p95: 12_000,
        p99: 12_000,
        max: 12_000,
      },
    ]);
    expect(recorder.requests).toBe(1);
    expect(recorder.failures).toBe(0);
    expect(recorder.busyAnswers).toBe(2);
  });

  it("writes a Markdown row per step and a total", () => {
    const recorder = new StepRecorder();
    recorder.record("quote", 12.4);
    recorder.recordBusy("quote");
    recorder.record("quote", 40.6, "HTTP 500");
    const table = stepTable(recorder.summaries()).split("\n");
    expect(table[0]).toBe(
      "| step | requests | errors | busy, tried again | p50 ms | p95 ms | p99 ms | max ms |",
    );
    expect(table[2]).toBe("| quote | 2 | 1 | 1 | 12 | 41 | 41 | 41 |");
    expect(table[3]).toBe("| **all steps** | 2 | 1 | 1 | | | | |");
  });

  it("counts refusals under faults apart from errors, with a column of their own, and their reasons", () => {
    const recorder = new StepRecorder();
    recorder.recordRetried("Pay with Remita", "HTTP 502", 300);
    recorder.recordRetried("Pay with Remita", "UND_ERR_SOCKET, sent again");
    recorder.record("Pay with Remita", 100);
    expect(recorder.summaries()[0]).toMatchObject({ count: 2, errors: 0, retried: 2, max: 300 });
    expect([recorder.requests, recorder.failures, recorder.retries]).toEqual([2, 0, 2]);
    expect(recorder.retryReasons()).toEqual([
      ["Pay with Remita: HTTP 502", 1],
      ["Pay with Remita: UND_ERR_SOCKET, sent again", 1],
    ]);
    const table = stepTable(recorder.summaries()).split("\n");
    expect(table.slice(0, 2)).toEqual([
      "| step | requests | errors | busy, tried again | refused under faults, tried again | p50 ms | p95 ms | p99 ms | max ms |",
      "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]);
    expect(table[2]).toBe("| Pay with Remita | 2 | 0 | 0 | 2 | 100 | 300 | 300 | 300 |");
    expect(table[3]).toBe("| **all steps** | 2 | 0 | 0 | 2 | | | | |");
  });

  it("with the portal's CPU clock, counts what it moved since the step before for each step, and totals it per student", () => {
    const clock = [1_000, 1_004, 1_010, 1_013, 1_021, 1_026];
    const recorder = new StepRecorder(() => clock.shift() ?? null);
    // Two students one after the other; the first reading only sets the start.
    recorder.record("sign in", 50);
    recorder.record("dashboard", 20);
    recorder.record("sign out", 5);
    recorder.record("sign in", 40);
    recorder.record("dashboard", 30);
    recorder.record("sign out", 5);
    const summaries = recorder.summaries();
    expect(summaries.map((s) => [s.step, s.cpuMsPerRequest])).toEqual([
      ["sign in", 1.5],
      ["dashboard", 6],
      ["sign out", 5.5],
    ]);
    const table = stepTable(summaries).split("\n");
    expect(table[0]).toBe(
      "| step | requests | errors | busy, tried again | p50 ms | p95 ms | p99 ms | max ms | portal CPU ms per request |",
    );
    expect(table[2]).toBe("| sign in | 2 | 0 | 0 | 40 | 50 | 50 | 50 | 1.5 |");
    expect(table[5]).toBe("| **all steps** | 6 | 0 | 0 | | | | | 13.0 per student |");
  });
});
