/**
 * How arrivals spread over the run. `deadline`: the arrival rate climbs steadily from nothing
 * to twice the average, as a registration deadline draws near (five in nine students arrive in
 * the last third). `flat`: the same rate throughout.
 */
export type ArrivalShape = "deadline" | "flat";

export const ARRIVAL_SHAPES: readonly ArrivalShape[] = ["deadline", "flat"];

/**
 * When each of `students` arrives, in milliseconds from the start, ascending, all within
 * `durationMs`. Deterministic, so two runs with the same flags offer the same load.
 * The deadline ramp has rate ∝ t, so the share arrived by t is (t/T)²: student i of N arrives at
 * T·√((i + ½)/N), placing each at the middle of its share.
 */
export function arrivalOffsets(
  students: number,
  durationMs: number,
  shape: ArrivalShape,
): number[] {
  return Array.from({ length: students }, (_, i) => {
    const share = (i + 0.5) / students;
    return durationMs * (shape === "deadline" ? Math.sqrt(share) : share);
  });
}

/**
 * `arrivals` (ascending) with `burst` more students, all within the last second of `durationMs`,
 * when a deadline's arrivals come fastest: more at once than the portal lets in, so a line forms.
 * Ascending again, so the burst mixes with the others arriving then.
 */
export function withBurst(
  arrivals: readonly number[],
  burst: number,
  durationMs: number,
): number[] {
  const start = Math.max(0, durationMs - 1_000);
  const width = durationMs - start;
  const extra = Array.from({ length: burst }, (_, i) => start + (width * (i + 0.5)) / burst);
  return [...arrivals, ...extra].sort((a, b) => a - b);
}
