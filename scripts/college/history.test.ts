import { describe, expect, it } from "vitest";
import { SESSION_NAMES } from "../../server/db/factories.ts";
import {
  planRegistration,
  planScore,
  planSessionPayments,
  planSignIns,
  seededRandom,
  sessionsStudied,
  SHARES,
  type PlannedPayment,
} from "./history.ts";

const DRAWS = 20_000;

// Drawn once for the file: each test reads the same sessions.
const drawn = new Map<boolean, PlannedPayment[][]>();
function manySessions(current: boolean) {
  if (!drawn.has(current)) {
    const random = seededRandom(7);
    drawn.set(
      current,
      Array.from({ length: DRAWS }, () => planSessionPayments(random, current)),
    );
  }
  return drawn.get(current)!;
}

/** Within a percentage point: 20,000 draws put a share's noise well inside it. */
const near = (share: number, expected: number) => Math.abs(share - expected) < 0.01;

const credited = (session: PlannedPayment[]) =>
  session.filter((payment) => payment.status === "success").map((payment) => payment.option);

describe("sessionsStudied", () => {
  it("runs from the session a student entered in to the current one, a level a year", () => {
    expect(sessionsStudied(SESSION_NAMES, "2024/2025", 300)).toEqual([
      { session: "2022/2023", level: 100, current: false },
      { session: "2023/2024", level: 200, current: false },
      { session: "2024/2025", level: 300, current: true },
    ]);
    expect(sessionsStudied(SESSION_NAMES, "2024/2025", 100)).toEqual([
      { session: "2024/2025", level: 100, current: true },
    ]);
  });

  it("refuses a level whose entry session the college does not hold", () => {
    expect(() => sessionsStudied(["2024/2025"], "2024/2025", 200)).toThrow(
      "No session list from 2023/2024 to 2024/2025.",
    );
  });
});

describe("planSessionPayments", () => {
  it("settles every past session: the whole fee credited once, at once or in two installments", () => {
    const unsettled = manySessions(false).filter(
      (session) =>
        !["full", "part,second_installment"].includes(credited(session).join(",")) ||
        session.some((payment) => payment.status === "pending"),
    );
    expect(unsettled).toEqual([]);
  });

  it("keeps the shares it promises, within a percentage point over 20,000 sessions", () => {
    const past = manySessions(false);
    const share = (sessions: PlannedPayment[][], test: (session: PlannedPayment[]) => boolean) =>
      sessions.filter(test).length / sessions.length;
    const current = manySessions(true);
    const shares = {
      fullAtOnce: share(past, (s) => credited(s).length === 1),
      abandonedFirst: share(past, (s) => s.some((p) => p.status === "abandoned")),
      failedFirst: share(past, (s) => s.some((p) => p.status === "failed")),
      paidTwiceRefunded: share(past, (s) => s.some((p) => p.status === "refunded")),
      notStarted: share(current, (s) => s.length === 0),
      pendingRrr: share(current, (s) => s.some((p) => p.status === "pending")),
    };
    const { full, part, pendingRrr } = SHARES.current;
    const promised = {
      fullAtOnce: SHARES.fullAtOnce,
      abandonedFirst: SHARES.abandonedFirst,
      failedFirst: SHARES.failedFirst,
      paidTwiceRefunded: SHARES.paidTwiceRefunded,
      notStarted: 1 - full - part - pendingRrr,
      pendingRrr,
    };
    const off = Object.entries(promised).filter(
      ([name, expected]) => !near(shares[name as keyof typeof shares], expected),
    );
    expect(off, JSON.stringify(shares)).toEqual([]);
  });

  it("gives each status the events the portal records for it, and refunds through Paystack", () => {
    const all = [...manySessions(false), ...manySessions(true)].flat();
    const eventsOf = new Map<string, string>();
    for (const payment of all) eventsOf.set(payment.status, payment.events.join(" → "));
    expect(Object.fromEntries(eventsOf)).toEqual({
      success: "initialised → webhook-received → credited",
      abandoned: "initialised → abandoned",
      failed: "initialised → verify-answer → failed",
      pending: "initialised → verify-answer",
      refunded: "initialised → webhook-received → duplicate → refund-requested → refund-processed",
    });
    const gatewaysOf = (status: string) =>
      new Set(all.filter((payment) => payment.status === status).map((p) => p.gateway));
    expect(gatewaysOf("refunded")).toEqual(new Set(["paystack"]));
    expect(gatewaysOf("pending")).toEqual(new Set(["remita"]));
    const successes = all.filter((payment) => payment.status === "success");
    const remita = successes.filter((payment) => payment.gateway === "remita");
    expect(near(remita.length / successes.length, SHARES.throughRemita)).toBe(true);
  });

  it("never credits one option twice in a session (the database refuses it)", () => {
    const twice = [...manySessions(false), ...manySessions(true)].filter(
      (session) => new Set(credited(session)).size !== credited(session).length,
    );
    expect(twice).toEqual([]);
  });
});

describe("planRegistration and planSignIns", () => {
  it("approves both semesters of every past session; half register in the current one", () => {
    const random = seededRandom(3);
    expect(planRegistration(random, false)).toEqual({ semesters: [1, 2], approved: [1, 2] });
    const current = Array.from({ length: DRAWS }, () => planRegistration(random, true));
    const registered = current.filter((plan) => plan.semesters.length > 0);
    expect(near(registered.length / DRAWS, SHARES.currentRegistered)).toBe(true);
    expect(current.every((plan) => plan.approved.every((s) => plan.semesters.includes(s)))).toBe(
      true,
    );
  });

  it("leaves at most the latest sign-in open", () => {
    const random = seededRandom(5);
    const drawnSignIns = Array.from({ length: DRAWS }, () => planSignIns(random));
    const wrong = drawnSignIns.filter(
      (signIns) => signIns.length === 0 || signIns.slice(0, -1).includes("open"),
    );
    expect(wrong).toEqual([]);
    const open = drawnSignIns.filter((signIns) => signIns.at(-1) === "open").length;
    expect(near(open / DRAWS, SHARES.signedInNow)).toBe(true);
  });
});

describe("planScore", () => {
  it("gives marks within CA 40 and exam 60, a few below the pass mark of 40", () => {
    const random = seededRandom(11);
    const drawnScores = Array.from({ length: DRAWS }, () => planScore(random));
    const outOfRange = drawnScores.filter(
      ({ ca, exam }) => ca < 0 || ca > 40 || exam < 0 || exam > 60,
    );
    expect(outOfRange).toEqual([]);
    const failed = drawnScores.filter(({ ca, exam }) => ca + exam < 40).length;
    expect(near(failed / DRAWS, SHARES.failedCourse)).toBe(true);
  });
});

describe("seededRandom", () => {
  it("repeats itself for one seed and differs for another, within [0, 1)", () => {
    const a = seededRandom(34);
    const b = seededRandom(34);
    const c = seededRandom(35);
    const first = Array.from({ length: 100 }, () => a());
    expect(Array.from({ length: 100 }, () => b())).toEqual(first);
    expect(Array.from({ length: 100 }, () => c())).not.toEqual(first);
    expect(first.every((value) => value >= 0 && value < 1)).toBe(true);
  });
});
