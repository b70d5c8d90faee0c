import type { LineNumbers, WaitingLineStore } from "./line-store.ts";

/**
 * How fast this proxy lets newcomers in, in students per second (decision 193). Each proxy adds
 * its own share to one line; on one machine the serving processes share its cores, so their
 * shares add up to what the machine can take.
 */
export type GateSettings = {
  /** Where the share starts, before anything has been measured. */
  startPerSecond: number;
  /** The share never falls below this, so a line always moves. */
  minPerSecond: number;
  /** Nor rises above this (WAITING_LINE_MAX_PER_SECOND). */
  maxPerSecond: number;
};

export const DEFAULT_GATE_SETTINGS: GateSettings = {
  startPerSecond: 5,
  minPerSecond: 0.5,
  maxPerSecond: 200,
};

/**
 * When the portal is too slow for the students already in: the slowest tenth of their answers,
 * smoothed over the last few seconds, above this. The share then falls by 2 % a second until it is
 * not: the answer time rises a minute or two after the students who cause it were let in, so a
 * share that fell faster fell far below what the portal could take (the second 3,000-student run,
 * at 5 % a second, went from 11.7 students a second to 3.4 in forty seconds, then back to 10).
 * Well under the 300 ms, which is a 99th percentile of every step.
 */
const SLOW_MS = 150;
const SHRINK_PER_SECOND = 0.98;
/**
 * When there is room: answers this quick and the machine's cores this idle (below). The share then grows
 * by 1 % a second (at least a twentieth of a student), slowly, because a student let in now costs
 * most of their CPU a minute or two later (signing in, paying, registering) and a share that grew
 * fast would overshoot; the first load run with a line (2 %, and a tenth off a second) swung its
 * rate by half either way and its estimates with it. Busy cores alone never shrink it: on a
 * machine that also runs PostgreSQL or a load generator the cores can be full while every answer
 * is quick, and what students feel is the answer time.
 */
const QUICK_MS = 60;
/**
 * Growth stops while the cores are busier than this: at 85 % the third 3,000-student run grew its
 * rate to 15 students a second, past what the machine could take, before the answer time said so.
 */
const ROOMY_SHARE = 0.7;
const GROWTH_PER_SECOND = { least: 0.05, share: 0.01 };
/** How much of the smoothed answer time each second's reading makes: about five seconds' memory. */
const SMOOTHING = 0.2;

const TICK_MS = 1_000;
/** The admission rate a student's estimate is read from: how far the line moved in the last minute. */
const RATE_WINDOW_MS = 60_000;
/** Less than this much of the window measured, and the estimate says it is still being worked out. */
const MIN_RATE_WINDOW_MS = 15_000;
const REPORT_EVERY_MS = 10_000;

/** What an operator sees of the line: in /readyz and, while a line stands, the logs every 10 s. */
export type LineReport = {
  /** Tickets handed out and not yet admitted (some holders may have left). */
  waiting: number;
  /** How many the line admitted in the last minute, all proxies together. */
  admittedPerMinute: number | null;
  /** The longest a student still in line has waited, as seen by this proxy in the last 30 s. */
  oldestWaitSeconds: number;
  /** This proxy's share of admissions. */
  admittingPerSecond: number;
  /** The door is held (development hook): no one is let in. */
  held: boolean;
};

export type Gate = ReturnType<typeof createGate>;

/**
 * The per-proxy half of the line: it reads the line's numbers once a second, moves the line on
 * by this proxy's share, and grows or shrinks that share by how the portal is answering the
 * students already in. It ticks on the requests that reach it, not on a timer, so it runs the
 * same on an edge runtime; students in line refresh every few seconds, so a line never stalls.
 */
export function createGate(options: {
  store: WaitingLineStore;
  settings?: Partial<GateSettings>;
  /** Share of the machine's cores busy since the last reading, 0–1; null where the host cannot tell. */
  busyShare?: () => number | null;
  /** Called every 10 s while a line stands, and once when it is gone. */
  report?: (report: LineReport) => void;
  now?: () => number;
  /** Tells the host about a failure of the store; the door then stays open rather than shut. */
  onStoreError?: (error: unknown) => void;
}) {
  const settings = { ...DEFAULT_GATE_SETTINGS, ...options.settings };
  const now = options.now ?? Date.now;
  let share = Math.min(settings.startPerSecond, settings.maxPerSecond);
  // A second's worth at once: a portal that has just started is not full.
  let allowance = Math.max(share, 1);
  let numbers: LineNumbers | null = null;
  let lastTick = now();
  let lastReport = 0;
  let reportedALine = false;
  let ticking: Promise<void> | null = null;
  let wanted = false;
  let answerTimes: number[] = [];
  /** The slowest tenth of answers to students already in, smoothed; null until there were some. */
  let slowest: number | null = null;
  const history: { at: number; admittedThrough: number }[] = [];
  let oldestWait = { seconds: 0, seenAt: 0 };

  const lineStands = () =>
    numbers !== null && (numbers.held || numbers.issuedThrough > numbers.admittedThrough);

  /** Students per second the whole line moved at over the last minute; null until measured. */
  function admissionRate(at: number) {
    const first = history[0];
    const last = history.at(-1);
    if (!first || !last || last.at - first.at < MIN_RATE_WINDOW_MS) return null;
    return (last.admittedThrough - first.admittedThrough) / ((last.at - first.at) / 1000);
  }

  function adjustShare(seconds: number) {
    const busy = options.busyShare?.() ?? null;
    const reading = tenthSlowest(answerTimes);
    answerTimes = [];
    if (reading !== null)
      slowest = slowest === null ? reading : slowest + SMOOTHING * (reading - slowest);
    const slow = slowest !== null && slowest > SLOW_MS;
    const roomy = (slowest === null || slowest < QUICK_MS) && (busy === null || busy < ROOMY_SHARE);
    if (slow) share = Math.max(settings.minPerSecond, share * SHRINK_PER_SECOND ** seconds);
    else if (roomy && wanted) {
      const growth = Math.max(GROWTH_PER_SECOND.least, share * GROWTH_PER_SECOND.share);
      share = Math.min(settings.maxPerSecond, share + growth * seconds);
    }
    wanted = false;
  }

  async function tick() {
    const at = now();
    const seconds = Math.min((at - lastTick) / 1000, 5);
    lastTick = at;
    adjustShare(seconds);
    allowance += share * seconds;
    try {
      // Asked of a held door too: the store admits no one then, and says whether it is still held.
      const admitting = lineStands() ? Math.floor(allowance) : 0;
      numbers = admitting > 0 ? await options.store.admit(admitting) : await options.store.read();
      if (admitting > 0 && !numbers.held) {
        allowance -= admitting;
        wanted = true;
      }
    } catch (error) {
      options.onStoreError?.(error);
      return;
    }
    // Without a line the allowance is what newcomers may take at once: a second or two's worth.
    if (!lineStands() || numbers.held) allowance = Math.min(allowance, Math.max(share * 2, 1));
    history.push({ at, admittedThrough: numbers.admittedThrough });
    while (history.length > 1 && at - history[0]!.at > RATE_WINDOW_MS) history.shift();
    reportNow(at);
  }

  function reportNow(at: number) {
    if (!options.report) return;
    const standing = lineStands();
    if (standing && at - lastReport >= REPORT_EVERY_MS) {
      lastReport = at;
      reportedALine = true;
      options.report(describe());
    } else if (!standing && reportedALine) {
      reportedALine = false;
      options.report(describe());
    }
  }

  function describe(): LineReport {
    const at = now();
    const rate = admissionRate(at);
    return {
      waiting: numbers ? numbers.issuedThrough - numbers.admittedThrough : 0,
      admittedPerMinute: rate === null ? null : Math.round(rate * 60),
      oldestWaitSeconds: at - oldestWait.seenAt < 30_000 ? oldestWait.seconds : 0,
      admittingPerSecond: Math.round(share * 10) / 10,
      held: numbers?.held ?? false,
    };
  }

  /**
   * The line's numbers, read again if a second has passed: the request that starts the reading
   * waits for it (one query, a millisecond), those arriving meanwhile take the numbers as they were.
   */
  async function current(): Promise<LineNumbers | null> {
    if (!ticking && (numbers === null || now() - lastTick >= TICK_MS)) {
      ticking = tick().finally(() => (ticking = null));
      await ticking;
    } else if (numbers === null && ticking) await ticking;
    return numbers;
  }

  return {
    /**
     * What the door needs to decide: whether a line stands, and the numbers. Null when the
     * store could not be read (the door then lets students through).
     */
    current,

    /** A newcomer with no line standing may come straight in while this proxy's allowance lasts. */
    takeFreePlace(): boolean {
      if (lineStands() || allowance < 1) {
        wanted = true;
        return false;
      }
      allowance -= 1;
      return true;
    },

    async join(): Promise<number> {
      const ticket = await options.store.join();
      if (numbers && ticket > numbers.issuedThrough)
        numbers = { ...numbers, issuedThrough: ticket };
      wanted = true;
      return ticket;
    },

    exchange: (ticket: number) => options.store.exchange(ticket),

    /** When the line should reach `place`, in seconds from now; null while it cannot be known. */
    turnInSeconds(place: number): number | null {
      const rate = admissionRate(now());
      if (rate === null || rate <= 0) return null;
      return place / rate;
    },

    /** A served answer to a student already in, for the share's next adjustment. */
    observeAnswer(milliseconds: number) {
      answerTimes.push(milliseconds);
    },

    /** A student still in line who arrived `seconds` ago. */
    observeWaiting(seconds: number) {
      const at = now();
      if (seconds > oldestWait.seconds || at - oldestWait.seenAt > 30_000) {
        oldestWait = { seconds, seenAt: at };
      }
    },

    describe,
  };
}

/** The answer time nine in ten answers were quicker than; null with too few answers to tell. */
function tenthSlowest(times: number[]): number | null {
  if (times.length < 5) return null;
  const sorted = [...times].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length * 0.9)]!;
}
