import type { PeakMemory } from "../bench/process-group.ts";
import type { CheckResult } from "./checks.ts";
import { lineParagraph, type LineSummary } from "./line.ts";
import { stepTable, type StepSummary } from "./stats.ts";

/** Everything the written measurement says, gathered by the run. */
export type LoadReport = {
  /** The heading's name for what the students came to do. */
  title: string;
  date: string;
  command: string;
  portal: string;
  database: string;
  machine: string;
  commit: string;
  settings: string;
  /** `minutes`: null when the students came one by one. */
  students: { total: number; completed: number; stopped: number; minutes: number | null };
  /**
   * `busy`: 503 answers the students came back from after Retry-After; `waiting`: waiting pages of
   * the line at the door they followed. Neither is counted in `total`.
   */
  requests: {
    total: number;
    failed: number;
    busy: number;
    waiting: number;
    seconds: number;
    peakPerSecond: number;
  };
  /** The line at the door, over every student of the run. */
  line: LineSummary;
  /**
   * What the machine did: the load averages at the start and the end, the simulation's own CPU, and
   * the portal's (every process of it, from the first arrival to the last answer; null for a
   * target portal). The portal's CPU per student is what compares two versions of the code on a
   * machine whose speed changes between runs. `databaseCpuSeconds`: every PostgreSQL process on
   * this machine, when the run's database is on it (null otherwise, and for PGlite, which is inside
   * the portal).
   */
  machineLoad: {
    before: number[];
    after: number[];
    simulatorCpuSeconds: number;
    portalCpuSeconds: number | null;
    databaseCpuSeconds: number | null;
  };
  /** A bare Node hello-world on the same machine just before the run: what compares runs on different days. */
  bareNodeRequestsPerSecond: number;
  /** The portal's largest memory seen (sampled every 2 s); null for a target portal. */
  portalPeakMemory: PeakMemory | null;
  steps: StepSummary[];
  errorReasons: [string, number][];
  /** Under --faults: refusals the students tried again, by step and reason (not failures). */
  retryReasons?: [string, number][];
  /** Under --faults: what was done to the portal, a line each (switches, notifications, the kill). */
  faults?: string[];
  checks: CheckResult[];
  /** What the portal logged as warnings and errors during the run, by kind; empty for a target portal. */
  portalProblems: [string, number][];
  /** Set when the portal exited by itself during the run. */
  crash: string | null;
};

const MAX_REASONS = 15;
const mib = (bytes: number) => Math.round(bytes / 2 ** 20).toLocaleString("en");

/** The run as Markdown, for docs/measurements/ and the terminal alike. */
export function formatReport(report: LoadReport): string {
  const { students, requests } = report;
  const perSecond = requests.total / Math.max(requests.seconds, 0.001);
  const lines = [
    `# ${report.title}, ${report.date}: ${students.total} students ` +
      (students.minutes === null
        ? "one by one"
        : `arriving over ${students.minutes} minute${students.minutes === 1 ? "" : "s"}`),
    "",
    `- Command: \`${report.command}\``,
    `- Portal: ${report.portal}`,
    `- Database: ${report.database}`,
    `- Machine: ${report.machine}`,
    `- Commit: ${report.commit}`,
    `- Settings: ${report.settings}`,
    "",
    `Students: ${students.total} arrived, ${students.completed} went through to sign-out, ${students.stopped} stopped at a failed step.`,
    `Requests: ${requests.total} in ${requests.seconds.toFixed(1)} s, ${perSecond.toFixed(1)} req/s overall, ${requests.peakPerSecond.toFixed(1)} req/s in the busiest 10 s; ${requests.failed} failed.` +
      (requests.busy > 0
        ? ` ${requests.busy} more were answered "busy" (503) and sent again after the Retry-After.`
        : "") +
      (requests.waiting > 0
        ? ` ${requests.waiting} more were answered with the waiting page of the line at the door, whose refresh the students followed.`
        : ""),
    "",
    lineParagraph(report.line),
    "",
    `Load on the machine: 1-minute load average ${report.machineLoad.before[0]!.toFixed(1)} at the start, ` +
      `${report.machineLoad.after[0]!.toFixed(1)} at the end; the simulation itself used ${report.machineLoad.simulatorCpuSeconds.toFixed(0)} CPU-seconds.` +
      (report.machineLoad.portalCpuSeconds === null
        ? ""
        : ` The portal used ${report.machineLoad.portalCpuSeconds.toFixed(1)} CPU-seconds, ` +
          `${((1000 * report.machineLoad.portalCpuSeconds) / Math.max(students.total, 1)).toFixed(0)} ms per student.`) +
      (report.machineLoad.databaseCpuSeconds === null
        ? ""
        : ` PostgreSQL (all its processes on this machine) used ${report.machineLoad.databaseCpuSeconds.toFixed(1)} CPU-seconds, ` +
          `${((1000 * report.machineLoad.databaseCpuSeconds) / Math.max(students.total, 1)).toFixed(0)} ms per student.`) +
      memoryLine(report.portalPeakMemory),
    "",
    `Baseline: a bare Node \`http\` hello-world answered ${Math.round(report.bareNodeRequestsPerSecond).toLocaleString("en")} req/s on this machine just before the students arrived ` +
      `(autocannon, 20 connections); the portal's busiest 10 s were ${((100 * requests.peakPerSecond) / Math.max(report.bareNodeRequestsPerSecond, 1)).toFixed(2)} % of it. ` +
      "The machine's speed changes from day to day; that share is what compares runs made on different days.",
    "",
    stepTable(report.steps),
    "",
  ];
  if (report.errorReasons.length > 0) {
    lines.push("Failed requests, most frequent first:", "");
    for (const [reason, times] of report.errorReasons.slice(0, MAX_REASONS))
      lines.push(`- ${reason}: ${times}`);
    if (report.errorReasons.length > MAX_REASONS)
      lines.push(`- … ${report.errorReasons.length - MAX_REASONS} more kinds`);
    lines.push("");
  }
  if (report.faults?.length) {
    lines.push("Remita and faults:", "", ...report.faults.map((line) => `- ${line}`), "");
  }
  if (report.retryReasons?.length) {
    lines.push("Refused under faults and tried again (not failures), most frequent first:", "");
    for (const [reason, times] of report.retryReasons.slice(0, MAX_REASONS))
      lines.push(`- ${reason}: ${times}`);
    if (report.retryReasons.length > MAX_REASONS)
      lines.push(`- … ${report.retryReasons.length - MAX_REASONS} more kinds`);
    lines.push("");
  }
  if (report.portalProblems.length > 0) {
    lines.push("What the portal logged as warnings and errors, most frequent first:", "");
    for (const [problem, times] of report.portalProblems.slice(0, MAX_REASONS)) {
      lines.push(`- ${times} × \`${problem.replaceAll("`", "'")}\``);
    }
    lines.push("");
  }
  lines.push("Database checks at the end:", "");
  for (const check of report.checks)
    lines.push(`- ${check.ok ? "PASS" : "FAIL"} ${check.name}: ${check.detail}`);
  if (report.crash) lines.push("", "```", report.crash, "```");
  lines.push("", `Result: ${verdict(report)}`);
  return lines.join("\n") + "\n";
}

/** PASS, or FAIL with what failed. */
export function verdict(report: Pick<LoadReport, "requests" | "checks" | "crash">): string {
  if (passed(report)) return "PASS: no failed request, every database check passed.";
  const failedChecks = report.checks.filter((check) => !check.ok).length;
  const what = [
    `${report.requests.failed} failed request${report.requests.failed === 1 ? "" : "s"}`,
    `${failedChecks} failed database check${failedChecks === 1 ? "" : "s"}`,
    ...(report.checks.length === 0 ? ["the database was not checked"] : []),
    ...(report.crash ? ["the portal exited during the run"] : []),
  ];
  return `FAIL: ${what.join(", ")}.`;
}

/** No failed request, no failed check, and the portal still running at the end. */
export function passed(report: Pick<LoadReport, "requests" | "checks" | "crash">): boolean {
  return (
    report.requests.failed === 0 &&
    report.checks.length > 0 &&
    report.checks.every((check) => check.ok) &&
    !report.crash
  );
}

/**
 * The portal's memory peak. Its processes all run the same Node, whose code the kernel keeps once:
 * their resident sets added up count it once per process, so the figure with shared pages
 * counted once comes first, and the sum beside it (the only figure of runs before 2026-11-26's sixth session).
 */
function memoryLine(peak: PeakMemory | null): string {
  if (!peak) return "";
  const sum = `${mib(peak.residentBytes)} MiB as each process's resident memory added up`;
  return peak.residentSharedOnceBytes === null
    ? ` The portal's resident memory peaked at ${sum}.`
    : ` The portal's resident memory peaked at ${mib(peak.residentSharedOnceBytes)} MiB with the pages its processes share counted once (${sum}).`;
}
