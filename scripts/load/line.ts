import type { CheckResult } from "./checks.ts";
import { percentile } from "./stats.ts";
import { actualWaitMs, type StudentRecord } from "./waiting-page.ts";

/** A wait within ±25 % of its estimate counts as honest (issue 34). */
export const HONEST_WITHIN = 0.25;
/** The line's first minute: its estimates are still being measured and are not judged. */
export const LINE_FIRST_MINUTE_MS = 60_000;
/** The share of judged estimates that must be honest (issue 34). */
export const HONEST_TARGET = 0.9;

export type LineSummary = {
  students: number;
  waited: number;
  admitted: number;
  finished: number;
  lost: number;
  maxPlace: number | null;
  /** Seconds, over those admitted. */
  wait: { p50: number; p90: number; max: number } | null;
  /** Estimates shown after the line's first minute, and how many of them came true within ±25 %. */
  honesty: { judged: number; honest: number };
};

/**
 * The line over the whole run. An estimate is judged against the wait from the moment it was
 * shown, since it says how long is left from then; only estimates first shown after the line's
 * first minute (60 s after the run's first waiting page), and only for students let in.
 */
export function summariseLine(records: readonly StudentRecord[]): LineSummary {
  const inLine = records.filter((record) => record.line !== null);
  const lines = inLine.map((record) => record.line!);
  const waits = lines
    .map(actualWaitMs)
    .filter((wait): wait is number => wait !== null)
    .sort((a, b) => a - b);
  const lineStarted = Math.min(...lines.map((line) => line.firstPageAt));
  let judged = 0;
  let honest = 0;
  for (const line of lines) {
    const estimate = line.firstEstimate;
    if (!estimate || line.admittedAt === null) continue;
    if (estimate.shownAt < lineStarted + LINE_FIRST_MINUTE_MS) continue;
    judged += 1;
    const actualSeconds = (line.admittedAt - estimate.shownAt) / 1000;
    if (Math.abs(actualSeconds - estimate.seconds) <= HONEST_WITHIN * estimate.seconds) honest += 1;
  }
  const places = lines.map((line) => line.maxPlace).filter((place) => place !== null);
  return {
    students: records.length,
    waited: inLine.length,
    admitted: inLine.filter((record) => record.line!.admittedAt !== null).length,
    finished: inLine.filter((record) => record.finished).length,
    lost: records.filter((record) => record.lost !== null).length,
    maxPlace: places.length > 0 ? Math.max(...places) : null,
    wait:
      waits.length === 0
        ? null
        : {
            p50: percentile(waits, 50) / 1000,
            p90: percentile(waits, 90) / 1000,
            max: waits.at(-1)! / 1000,
          },
    honesty: { judged, honest },
  };
}

const seconds = (value: number) => `${value.toFixed(1)} s`;
const share = (part: number, whole: number) =>
  `${((100 * part) / Math.max(whole, 1)).toFixed(0)} %`;

/** The report's paragraph on the line at the door. */
export function lineParagraph(summary: LineSummary): string {
  if (summary.waited === 0) return "The line at the door: no student met it.";
  const { honesty } = summary;
  return [
    `The line at the door: ${summary.waited} of ${summary.students} students waited in it` +
      (summary.maxPlace === null ? "" : `, the longest line seen was ${summary.maxPlace}`) +
      `; ${summary.admitted} were let in, ${summary.finished} of them went through to the end, ${summary.lost} were lost by the line.` +
      (summary.wait
        ? ` Wait from the first waiting page to the page asked for: p50 ${seconds(summary.wait.p50)}, p90 ${seconds(summary.wait.p90)}, max ${seconds(summary.wait.max)} (not counted in the steps' latencies).`
        : ""),
    honesty.judged === 0
      ? "Estimates: none was first shown after the line's first minute, so none was judged."
      : `Estimates first shown after the line's first minute: ${honesty.honest} of ${honesty.judged} (${share(honesty.honest, honesty.judged)}) came true within ±${HONEST_WITHIN * 100} % ` +
        `(target ≥ ${HONEST_TARGET * 100} %: ${honesty.honest >= HONEST_TARGET * honesty.judged ? "met" : "missed"}).`,
  ].join(" ");
}

/**
 * CI's over-capacity burst: it must have formed a line, and every student in it must have been
 * let in and gone through to the end, with no request failed in the whole run.
 */
export function lineCheck(records: readonly StudentRecord[], failedRequests: number): CheckResult {
  const summary = summariseLine(records);
  const stuck = records
    .filter(
      (record) => record.line !== null && (record.line.admittedAt === null || !record.finished),
    )
    .map((record) => record.studentId);
  const ok = summary.waited > 0 && stuck.length === 0 && summary.lost === 0 && failedRequests === 0;
  return {
    name: "the burst formed a line and it drained",
    ok,
    detail:
      summary.waited === 0
        ? "no student met the line"
        : `${summary.waited} waited (longest line ${summary.maxPlace ?? "unknown"}), ${summary.admitted} let in, ${summary.finished} went through to the end, ${summary.lost} lost` +
          (stuck.length > 0
            ? `; not through: students ${stuck.slice(0, 5).join(", ")}${stuck.length > 5 ? ", …" : ""}`
            : "") +
          `; ${failedRequests} failed request${failedRequests === 1 ? "" : "s"} in the run`,
  };
}

/** Seconds from `origin` with a tenth's precision, or empty for nothing. */
const at = (ms: number | null | undefined, origin: number) =>
  ms === null || ms === undefined ? "" : ((ms - origin) / 1000).toFixed(1);

/**
 * One row per student, times in seconds from the run's first arrival: what the issue asks the
 * load tool to report per student, for a look beyond the summary.
 */
export function studentsCsv(records: readonly StudentRecord[]): string {
  const origin = Math.min(...records.map((record) => record.arrivedAt));
  const rows = [...records]
    .sort((a, b) => a.arrivedAt - b.arrivedAt || a.studentId - b.studentId)
    .map((record) => {
      const line = record.line;
      const wait = line ? actualWaitMs(line) : null;
      return [
        record.studentId,
        at(record.arrivedAt, origin),
        at(line?.firstPageAt, origin),
        line?.firstPageEstimateSeconds ?? "",
        line?.firstEstimate?.seconds ?? "",
        at(line?.firstEstimate?.shownAt, origin),
        wait === null ? "" : (wait / 1000).toFixed(1),
        line?.maxPlace ?? "",
        record.timesInLine,
        record.admitted ? "yes" : "no",
        record.finished ? "yes" : "no",
        csvText(record.lost ?? ""),
      ].join(",");
    });
  return (
    [
      "student_id,arrived_s,first_waiting_page_s,first_page_estimate_s,first_estimate_s,first_estimate_shown_s,actual_wait_s,max_place,times_in_line,admitted,finished,lost",
      ...rows,
    ].join("\n") + "\n"
  );
}

const csvText = (text: string) => (/[",\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text);
