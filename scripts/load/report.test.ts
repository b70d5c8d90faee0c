import { describe, expect, it } from "vitest";
import { summariseLine } from "./line.ts";
import { formatReport, type LoadReport } from "./report.ts";

const report = (overrides: Partial<LoadReport> = {}): LoadReport => ({
  title: "Registration week",
  date: "2026-11-26",
  command: "node scripts/load.ts --students 10",
  portal: "started by the simulation",
  database: "PGlite",
  machine: "2 cores",
  commit: "abc1234",
  settings: "think times ×1",
  students: { total: 10, completed: 10, stopped: 0, minutes: 1 },
  requests: { total: 190, failed: 0, busy: 0, waiting: 0, seconds: 60, peakPerSecond: 450 },
  line: summariseLine([]),
  machineLoad: {
    before: [0.5],
    after: [1.5],
    simulatorCpuSeconds: 3,
    portalCpuSeconds: null,
    databaseCpuSeconds: null,
  },
  bareNodeRequestsPerSecond: 45_000,
  portalPeakMemory: null,
  steps: [],
  errorReasons: [],
  checks: [{ name: "every payment credited", ok: true, detail: "10 paid, 10 credited" }],
  portalProblems: [],
  crash: null,
  ...overrides,
});

describe("formatReport", () => {
  it("names the scenario in its heading", () => {
    expect(formatReport(report({ title: "Results day" }))).toMatch(
      /^# Results day, 2026-11-26: 10 students arriving over 1 minute/,
    );
  });

  it("prints the bare Node baseline of the same run and the busiest 10 s as a share of it", () => {
    const text = formatReport(report());
    expect(text).toContain(
      "hello-world answered 45,000 req/s on this machine just before the students arrived",
    );
    expect(text).toContain("the portal's busiest 10 s were 1.00 % of it");
  });

  it("gives the portal's and the local PostgreSQL's CPU per student, and says nothing of them for a target", () => {
    const started = formatReport(
      report({
        machineLoad: {
          before: [0.5],
          after: [1.5],
          simulatorCpuSeconds: 3,
          portalCpuSeconds: 0.9,
          databaseCpuSeconds: 0.4,
        },
      }),
    );
    expect(started).toContain(
      "The portal used 0.9 CPU-seconds, 90 ms per student. PostgreSQL (all its processes on this machine) used 0.4 CPU-seconds, 40 ms per student.",
    );
    expect(formatReport(report())).not.toContain("The portal used");
  });

  it("gives the memory peak with shared pages counted once first, and the processes' sum beside it", () => {
    const memory = { residentBytes: 1_100 * 2 ** 20, residentSharedOnceBytes: 930 * 2 ** 20 };
    expect(formatReport(report({ portalPeakMemory: memory }))).toContain(
      "The portal's resident memory peaked at 930 MiB with the pages its processes share counted once (1,100 MiB as each process's resident memory added up).",
    );
    const sumOnly = formatReport(
      report({ portalPeakMemory: { ...memory, residentSharedOnceBytes: null } }),
    );
    expect(sumOnly).toContain(
      "The portal's resident memory peaked at 1,100 MiB as each process's resident memory added up.",
    );
  });

  it("says how many busy answers were sent again, apart from the failures", () => {
    const text = formatReport(
      report({
        requests: { total: 190, failed: 2, busy: 37, waiting: 0, seconds: 60, peakPerSecond: 450 },
      }),
    );
    expect(text).toContain(
      '2 failed. 37 more were answered "busy" (503) and sent again after the Retry-After.',
    );
    expect(text).toContain("Result: FAIL: 2 failed requests, 0 failed database checks.");
  });
});

describe("formatReport on the line at the door", () => {
  it("says how many waiting pages were followed and what the line was like", () => {
    const at = Date.UTC(2026, 10, 28, 9);
    const text = formatReport(
      report({
        requests: { total: 190, failed: 0, busy: 0, waiting: 14, seconds: 60, peakPerSecond: 450 },
        line: summariseLine([
          {
            studentId: 1,
            arrivedAt: at,
            line: {
              firstPageAt: at,
              firstPageEstimateSeconds: null,
              firstEstimate: null,
              firstPlace: 7,
              maxPlace: 7,
              lastPlace: 1,
              pages: 14,
              admittedAt: at + 21_000,
            },
            timesInLine: 1,
            admitted: true,
            finished: true,
            lost: null,
          },
        ]),
      }),
    );
    expect(text).toContain(
      "0 failed. 14 more were answered with the waiting page of the line at the door, whose refresh the students followed.",
    );
    expect(text).toContain(
      "The line at the door: 1 of 1 students waited in it, the longest line seen was 7; 1 were let in",
    );
    expect(text).toContain("p50 21.0 s, p90 21.0 s, max 21.0 s");
  });
});
