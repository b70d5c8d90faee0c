import type { StudentRecord } from "./waiting-page.ts";

/** What one step of the journey cost across all students. */
export type StepSummary = {
  step: string;
  count: number;
  errors: number;
  /** Answers of 503 "busy" that the student came back from after the Retry-After they gave. */
  busy: number;
  /** Refusals under faults the student tried again (a gateway down, a dropped connection). */
  retried: number;
  /** Waiting pages of the line at the door the student was shown before the step was let through. */
  waiting: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  /** The portal's CPU per request of this step, when the recorder was given the portal's CPU clock. */
  cpuMsPerRequest?: number;
};

/**
 * The nearest-rank percentile of `sorted` (ascending): the smallest value at or below which
 * `p` per cent of the values lie. Nearest-rank never invents a value no request took, so a p99
 * of 30,000 ms means a request really waited that long.
 */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  if (p <= 0) return sorted[0]!;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(rank, sorted.length) - 1]!;
}

/**
 * Counts and latencies per step, in the order the steps were first seen. Failed requests count
 * in the latencies too: a timeout that took 30 s is part of what the student waited, and so is the
 * wait after a busy answer before the step went through. Time in the line at the door is not: it is
 * kept per student (issue 34 holds the steps after admission to their own target).
 */
export class StepRecorder {
  private readonly steps = new Map<
    string,
    {
      latencies: number[];
      errors: number;
      busy: number;
      retried: number;
      waiting: number;
      cpuMs: number;
    }
  >();
  private readonly students: StudentRecord[] = [];
  private readonly reasons = new Map<string, number>();
  private readonly retried = new Map<string, number>();
  requests = 0;
  failures = 0;
  busyAnswers = 0;
  retries = 0;
  /** Waiting pages of the line answered, over all steps. */
  waitingPages = 0;
  /** Students in the line at the door right now. */
  inLineNow = 0;
  private lastCpuMs: number | null = null;

  /**
   * `cpuClock`, the portal's CPU time so far in ms, is read as each step ends; what it moved since
   * the step before counts for this one. Only meaningful while one student at a time is on the
   * portal (--one-by-one).
   */
  private readonly cpuClock: (() => number | null) | undefined;
  constructor(cpuClock?: () => number | null) {
    this.cpuClock = cpuClock;
  }

  record(step: string, ms: number, error?: string) {
    const entry = this.entry(step);
    if (this.cpuClock) {
      const now = this.cpuClock();
      if (now !== null && this.lastCpuMs !== null) entry.cpuMs += now - this.lastCpuMs;
      this.lastCpuMs = now;
    }
    entry.latencies.push(ms);
    this.requests += 1;
    if (error !== undefined) {
      entry.errors += 1;
      this.failures += 1;
      const key = `${step}: ${error}`;
      this.reasons.set(key, (this.reasons.get(key) ?? 0) + 1);
    }
  }

  /** A 503 with Retry-After: the step is tried again, and recorded once when it ends. */
  recordBusy(step: string) {
    this.entry(step).busy += 1;
    this.busyAnswers += 1;
  }

  /** A waiting page of the line at the door (or a JSON sign-in refused for it), followed. */
  recordWaiting(step: string) {
    this.entry(step).waiting += 1;
    this.waitingPages += 1;
  }

  enteredLine() {
    this.inLineNow += 1;
  }

  leftLine() {
    this.inLineNow -= 1;
  }

  /** A student's visit, once it has ended. */
  recordStudent(record: StudentRecord) {
    this.students.push(record);
  }

  studentRecords(): readonly StudentRecord[] {
    return this.students;
  }

  /**
   * A refusal the student tries again (under --faults): not an error. With `ms`, an answer that
   * came back and counts among the step's requests; without, a dropped connection sent again.
   */
  recordRetried(step: string, reason: string, ms?: number) {
    const entry = this.entry(step);
    entry.retried += 1;
    this.retries += 1;
    if (ms !== undefined) {
      entry.latencies.push(ms);
      this.requests += 1;
    }
    const key = `${step}: ${reason}`;
    this.retried.set(key, (this.retried.get(key) ?? 0) + 1);
  }

  private entry(step: string) {
    let entry = this.steps.get(step);
    if (!entry) {
      entry = { latencies: [], errors: 0, busy: 0, retried: 0, waiting: 0, cpuMs: 0 };
      this.steps.set(step, entry);
    }
    return entry;
  }

  summaries(): StepSummary[] {
    return [...this.steps].map(([step, { latencies, errors, busy, retried, waiting, cpuMs }]) => {
      const sorted = [...latencies].sort((a, b) => a - b);
      return {
        step,
        count: sorted.length,
        errors,
        busy,
        retried,
        waiting,
        p50: percentile(sorted, 50),
        p95: percentile(sorted, 95),
        p99: percentile(sorted, 99),
        max: sorted.at(-1) ?? 0,
        ...(this.cpuClock ? { cpuMsPerRequest: cpuMs / Math.max(sorted.length, 1) } : {}),
      };
    });
  }

  /** Why requests failed, most frequent first: "sign in: HTTP 429" → 12. */
  errorReasons(): [string, number][] {
    return [...this.reasons].sort((a, b) => b[1] - a[1]);
  }

  /** Why steps were tried again, most frequent first. */
  retryReasons(): [string, number][] {
    return [...this.retried].sort((a, b) => b[1] - a[1]);
  }
}

const ms = (value: number) => `${Math.round(value)}`;

/**
 * The per-step table as Markdown, with a total row over all requests; a column of waiting pages
 * only when the line at the door stood, and of refusals tried again only when there were some (a
 * run under --faults).
 */
export function stepTable(summaries: readonly StepSummary[]): string {
  const withCpu = summaries.some((s) => s.cpuMsPerRequest !== undefined);
  const withWaiting = summaries.some((s) => s.waiting > 0);
  const withRetried = summaries.some((s) => s.retried > 0);
  const cpu = (value: number | undefined) =>
    withCpu ? ` ${value === undefined ? "" : value.toFixed(1)} |` : "";
  const waiting = (value: number | string) => (withWaiting ? ` ${value} |` : "");
  const retried = (value: number | string) => (withRetried ? ` ${value} |` : "");
  const rows = summaries.map(
    (s) =>
      `| ${s.step} | ${s.count} | ${s.errors} | ${s.busy} |${waiting(s.waiting)}${retried(s.retried)} ${ms(s.p50)} | ${ms(s.p95)} | ${ms(s.p99)} | ${ms(s.max)} |${cpu(s.cpuMsPerRequest)}`,
  );
  const total = (key: "count" | "errors" | "busy" | "retried" | "waiting") =>
    summaries.reduce((sum, s) => sum + s[key], 0);
  // Per student: every step's CPU per request times its requests, over the students who started.
  const students = Math.max(...summaries.map((s) => s.count), 1);
  const cpuPerStudent =
    summaries.reduce((sum, s) => sum + (s.cpuMsPerRequest ?? 0) * s.count, 0) / students;
  return [
    `| step | requests | errors | busy, tried again |${waiting("waiting pages of the line, followed (not in the latencies)")}${retried("refused under faults, tried again")} p50 ms | p95 ms | p99 ms | max ms |${withCpu ? " portal CPU ms per request |" : ""}`,
    `|---|---:|---:|---:|${withWaiting ? "---:|" : ""}${withRetried ? "---:|" : ""}---:|---:|---:|---:|${withCpu ? "---:|" : ""}`,
    ...rows,
    `| **all steps** | ${total("count")} | ${total("errors")} | ${total("busy")} |${waiting(total("waiting"))}${retried(total("retried"))} | | | |${withCpu ? ` ${cpuPerStudent.toFixed(1)} per student |` : ""}`,
  ].join("\n");
}
