import type { PaymentEventKind } from "../../server/payments/payment-events.ts";
import { entrySession } from "../load/accounts.ts";

/**
 * What one college-size student did in the portal, session by session: which fees they paid and
 * how each payment went, what they registered and whether an adviser approved it, their hostel
 * invoice, and their recent sign-ins. Pure and seeded, so the same student gets the same history
 * on every build and the shares can be tested; college-size.ts writes it to the database.
 */

/** One session a student studied in, at the level they held in it. */
export type SessionStudied = { session: string; level: number; current: boolean };

/**
 * The sessions a student at `level` in `current` has studied in, oldest first: from the session
 * they entered in (as the load tool's accounts have it) up to the current one, a level a year.
 */
export function sessionsStudied(
  sessionNames: readonly string[],
  current: string,
  level: number,
): SessionStudied[] {
  const entered = sessionNames.indexOf(entrySession(current, level));
  const now = sessionNames.indexOf(current);
  if (entered < 0 || now < 0 || entered > now)
    throw new Error(`No session list from ${entrySession(current, level)} to ${current}.`);
  return sessionNames.slice(entered, now + 1).map((session, year) => ({
    session,
    level: 100 + 100 * year,
    current: session === current,
  }));
}

export type PlannedStatus = "success" | "abandoned" | "failed" | "pending" | "refunded";
export type SchoolFeeOption = "full" | "part" | "second_installment";

/** One payment attempt, in the order the student made them. */
export type PlannedPayment = {
  option: SchoolFeeOption;
  status: PlannedStatus;
  gateway: "paystack" | "remita";
  /** The events its history shows, in order (server/payments/payment-events.ts). */
  events: PaymentEventKind[];
};

/**
 * How often each thing happens. Past sessions are settled: every student paid the whole fee, at
 * once or in two installments, some after an attempt they abandoned or that failed, and a few
 * paid twice and were refunded. In the current session some have paid, some part, some hold an
 * unpaid Remita RRR (payable at a bank for 90 days), and the rest have not started.
 */
export const SHARES = {
  fullAtOnce: 0.75,
  abandonedFirst: 0.15,
  failedFirst: 0.04,
  paidTwiceRefunded: 0.01,
  throughRemita: 0.3,
  current: { full: 0.55, part: 0.15, pendingRrr: 0.08 },
  hostel: 0.3,
  /** Scores of past semesters below the pass mark: a compulsory one is carried over (decision 180). */
  failedCourse: 0.03,
  currentRegistered: 0.5,
  currentFirstApproved: 0.4,
  /** Students with a second sign-in in the last day; of all sign-ins, those still open. */
  secondSignIn: 0.5,
  signedInNow: 0.3,
} as const;

const EVENTS: Record<PlannedStatus, PaymentEventKind[]> = {
  success: ["initialised", "webhook-received", "credited"],
  abandoned: ["initialised", "abandoned"],
  failed: ["initialised", "verify-answer", "failed"],
  pending: ["initialised", "verify-answer"],
  refunded: [
    "initialised",
    "webhook-received",
    "duplicate",
    "refund-requested",
    "refund-processed",
  ],
};

/** The school-fee payments of one student in one session, in the order they were made. */
export function planSessionPayments(random: () => number, current: boolean): PlannedPayment[] {
  const gateway = () => (random() < SHARES.throughRemita ? "remita" : "paystack");
  const attempt = (option: SchoolFeeOption, status: PlannedStatus): PlannedPayment => ({
    option,
    status,
    // An unpaid RRR waits at the bank; a refund here went back through Paystack's refund API.
    gateway: status === "pending" ? "remita" : status === "refunded" ? "paystack" : gateway(),
    events: EVENTS[status],
  });
  let paid: SchoolFeeOption[];
  if (current) {
    const r = random();
    const { full, part, pendingRrr } = SHARES.current;
    if (r < full) paid = ["full"];
    else if (r < full + part) paid = ["part"];
    else if (r < full + part + pendingRrr) return [attempt("full", "pending")];
    else return [];
  } else {
    paid = random() < SHARES.fullAtOnce ? ["full"] : ["part", "second_installment"];
  }
  const before: PlannedPayment[] = [];
  if (random() < SHARES.abandonedFirst) before.push(attempt(paid[0]!, "abandoned"));
  if (random() < SHARES.failedFirst) before.push(attempt(paid[0]!, "failed"));
  const payments = [...before, ...paid.map((option) => attempt(option, "success"))];
  // Paid a second time (two tabs, or a bank and a card): the second was refunded.
  if (random() < SHARES.paidTwiceRefunded) payments.push(attempt(paid.at(-1)!, "refunded"));
  return payments;
}

/** Which semesters of a session a student registered, and which an adviser approved. */
export type PlannedRegistration = { semesters: (1 | 2)[]; approved: (1 | 2)[] };

export function planRegistration(random: () => number, current: boolean): PlannedRegistration {
  if (!current) return { semesters: [1, 2], approved: [1, 2] };
  if (random() >= SHARES.currentRegistered) return { semesters: [], approved: [] };
  return { semesters: [1, 2], approved: random() < SHARES.currentFirstApproved ? [1] : [] };
}

/** One sign-in of the last day: still open, signed out, or run out (idle or absolute limit). */
export type PlannedSignIn = "open" | "signed-out" | "expired";

export function planSignIns(random: () => number): PlannedSignIn[] {
  const count = random() < SHARES.secondSignIn ? 2 : 1;
  return Array.from({ length: count }, (_, i) => {
    // Only the latest can still be open.
    if (i === count - 1 && random() < SHARES.signedInNow) return "open";
    return random() < 0.6 ? "signed-out" : "expired";
  });
}

/** A past course's published score: CA out of 40 and exam out of 60; a few fail. */
export function planScore(random: () => number): { ca: number; exam: number } {
  if (random() < SHARES.failedCourse)
    return { ca: 5 + Math.floor(random() * 11), exam: 5 + Math.floor(random() * 16) };
  return { ca: 15 + Math.floor(random() * 26), exam: 25 + Math.floor(random() * 36) };
}

/**
 * A small seeded generator (mulberry32): the same seed gives the same history, so two builds of
 * one size hold the same college and a measurement can be repeated on it.
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
