import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import {
  playStudent,
  type JourneyOptions,
  type JourneyOutcome,
  type StudentAccount,
} from "./journey.ts";
import type { StepRecorder } from "./stats.ts";

export type SimulationResult = {
  outcomes: JourneyOutcome[];
  /** From the first arrival to the last student's last answer. */
  durationMs: number;
  /** Requests per second over the busiest 10-second window. */
  peakRequestsPerSecond: number;
};

const WINDOW_MS = 10_000;

/**
 * Lets each student in at their arrival time (ms from the start) and plays their visit, all at
 * once as they overlap, printing a line every ten seconds; resolves when the last one is done.
 */
export async function simulate(
  accounts: readonly StudentAccount[],
  options: {
    origin: string;
    arrivals: readonly number[];
    addressOf: (student: number) => string;
    recorder: StepRecorder;
    timeoutMs: number;
    think: number;
    /** Each student arrives once the one before is done; `arrivals` is then not used. */
    oneByOne?: boolean;
    /** One student's visit: registration week's unless the scenario has its own. */
    play?: (account: StudentAccount, options: JourneyOptions) => Promise<JourneyOutcome>;
    progress: (message: string) => void;
  },
): Promise<SimulationResult> {
  const { recorder } = options;
  const started = performance.now();
  let arrived = 0;
  let finished = 0;
  let stopped = 0;
  let peak = 0;
  let lastCount = 0;
  const ticker = setInterval(() => {
    const rate = ((recorder.requests - lastCount) * 1000) / WINDOW_MS;
    lastCount = recorder.requests;
    peak = Math.max(peak, rate);
    const seconds = Math.round((performance.now() - started) / 1000);
    options.progress(
      `[${String(seconds).padStart(4)} s] arrived ${arrived}/${accounts.length}, on the portal ${arrived - finished}, ` +
        `done ${finished - stopped}, stopped by an error ${stopped}` +
        (recorder.waitingPages > 0 ? `, in the line at the door ${recorder.inLineNow}` : "") +
        `; ${rate.toFixed(1)} req/s, ${recorder.failures} failed requests`,
    );
  }, WINDOW_MS);

  const visits: Promise<JourneyOutcome>[] = [];
  try {
    for (const [index, account] of accounts.entries()) {
      const wait = started + options.arrivals[index]! - performance.now();
      if (options.oneByOne) await visits.at(-1);
      else if (wait > 0) await sleep(wait);
      arrived += 1;
      const visit = (options.play ?? playStudent)(account, {
        origin: options.origin,
        localAddress: options.addressOf(index),
        recorder,
        timeoutMs: options.timeoutMs,
        think: options.think,
      }).then((outcome) => {
        finished += 1;
        if (!outcome.completed) stopped += 1;
        return outcome;
      });
      visits.push(visit);
    }
    const outcomes = await Promise.all(visits);
    const durationMs =
      performance.now() - started - (options.oneByOne ? 0 : (options.arrivals[0] ?? 0));
    // A run shorter than one window has no full window: its average is its busiest.
    const average = (recorder.requests * 1000) / Math.max(durationMs, 1);
    return {
      outcomes,
      durationMs,
      peakRequestsPerSecond: Math.max(peak, durationMs < WINDOW_MS ? average : 0),
    };
  } finally {
    clearInterval(ticker);
  }
}
