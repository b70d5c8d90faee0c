import { and, eq, inArray, sql } from "drizzle-orm";
import type { Database } from "../../server/db/client.ts";
import { courseRegistrations, courses, paymentEvents, payments } from "../../server/db/schema.ts";
import { MAX_UNITS } from "../../common/courses/registration-status.ts";
import { REGISTER_STEP, type JourneyOutcome, type StudentAccount } from "./journey.ts";

export type CheckResult = { name: string; ok: boolean; detail: string };

/** What the payment provider (the sandbox) says was paid, by reference; null (and why) when it could not be asked. */
export type ProviderPaid = { paid: Set<string> | null; problem?: string };

const SHOWN = 5;
const some = (items: readonly unknown[]) =>
  items.slice(0, SHOWN).join(", ") + (items.length > SHOWN ? `, … (${items.length} in all)` : "");

// Thousands of ids in one IN list are fine for PostgreSQL and PGlite, but not tens of thousands.
export async function inChunks<T>(
  ids: readonly number[],
  query: (chunk: number[]) => Promise<T[]>,
): Promise<T[]> {
  let rows: T[] = [];
  // concat, not push(...chunk): a chunk's rows (a course registration each) can outnumber the
  // arguments a call may take.
  for (let start = 0; start < ids.length; start += 5_000)
    rows = rows.concat(await query(ids.slice(start, start + 5_000)));
  return rows;
}

/**
 * What the run left in the database, read after the last student: every payment paid at the
 * checkout credited once, at the quoted amount, and nothing credited that the provider did not
 * take; no student over the unit cap or holding a course twice; each registration as asked.
 */
export async function checkDatabase(
  db: Database,
  run: {
    accounts: readonly StudentAccount[];
    outcomes: readonly JourneyOutcome[];
    providerPaid: ProviderPaid;
  },
): Promise<CheckResult[]> {
  const ids = run.accounts.map((account) => account.id);
  const session = run.accounts[0]?.session ?? "";
  const accountOf = new Map(run.accounts.map((account) => [account.id, account]));
  const results: CheckResult[] = [];
  const check = (name: string, problems: readonly string[], good: string) =>
    results.push({
      name,
      ok: problems.length === 0,
      detail: problems.length === 0 ? good : some(problems),
    });

  const paymentRows = await inChunks(ids, (chunk) =>
    db.select().from(payments).where(inArray(payments.studentId, chunk)),
  );
  const byReference = new Map(paymentRows.map((row) => [row.reference, row]));
  const credited = paymentRows.filter((row) => row.status === "success");

  const paidAtCheckout = run.outcomes.filter((outcome) => outcome.paidReference);
  check(
    "every payment made at the checkout is credited",
    paidAtCheckout
      .filter((outcome) => byReference.get(outcome.paidReference!)?.status !== "success")
      .map(
        (outcome) =>
          `${outcome.paidReference} is ${byReference.get(outcome.paidReference!)?.status ?? "missing"}`,
      ),
    `${paidAtCheckout.length} paid, ${paidAtCheckout.length} credited`,
  );

  // Each simulated student pays one fee once: a second credit of any kind is money taken twice.
  const creditsOf = new Map<number, string[]>();
  for (const row of credited)
    creditsOf.set(row.studentId, [...(creditsOf.get(row.studentId) ?? []), row.reference]);
  const twice = [...creditsOf]
    .filter(([, references]) => references.length > 1)
    .map(
      ([student, references]) =>
        `student ${student} credited ${references.length} times (${references.join(", ")})`,
    );
  const flagged = paymentRows
    .filter((row) => row.status === "duplicate" || row.status === "mismatch")
    .map((row) => `${row.reference} ${row.status}`);
  check(
    "at most one credited payment per student",
    [...twice, ...flagged],
    `${credited.length} credited payments for ${creditsOf.size} students, none duplicate or mismatched`,
  );

  const quoted = new Map(
    run.outcomes
      .filter((o) => o.quotedNaira !== undefined)
      .map((o) => [o.studentId, o.quotedNaira!]),
  );
  check(
    "credited amounts are the quoted amounts",
    credited.flatMap((row) => {
      const expected = quoted.get(row.studentId);
      const problems: string[] = [];
      if (expected !== undefined && row.amountKobo !== expected * 100)
        problems.push(`${row.reference}: ${row.amountKobo} kobo, quoted ₦${expected}`);
      if (row.paidAmountKobo !== row.amountKobo)
        problems.push(`${row.reference}: paid ${row.paidAmountKobo} kobo of ${row.amountKobo}`);
      if (row.paymentOption !== accountOf.get(row.studentId)?.paymentOption)
        problems.push(`${row.reference}: ${row.paymentOption} credited`);
      return problems;
    }),
    `${credited.length} amounts as quoted and as paid`,
  );

  const paymentIds = paymentRows.map((row) => row.id);
  const creditEvents = await inChunks(paymentIds, (chunk) =>
    db
      .select({ paymentId: paymentEvents.paymentId, times: sql<number>`count(*)::int` })
      .from(paymentEvents)
      .where(and(eq(paymentEvents.kind, "credited"), inArray(paymentEvents.paymentId, chunk)))
      .groupBy(paymentEvents.paymentId),
  );
  const eventsOf = new Map(creditEvents.map((row) => [row.paymentId, Number(row.times)]));
  check(
    "one credit event per credited payment",
    paymentRows
      .filter((row) => (eventsOf.get(row.id) ?? 0) !== (row.status === "success" ? 1 : 0))
      .map(
        (row) => `${row.reference} (${row.status}) has ${eventsOf.get(row.id) ?? 0} credit events`,
      ),
    `${credited.length} credit events`,
  );

  const providerPaid = run.providerPaid.paid;
  if (providerPaid === null) {
    results.push({
      name: "the provider and the portal agree",
      ok: false,
      detail: run.providerPaid.problem ?? "the provider could not be asked",
    });
  } else {
    const unpaid = credited
      .filter((row) => !providerPaid.has(row.reference))
      .map((row) => `${row.reference} credited, not paid`);
    const uncredited = paymentRows
      .filter((row) => providerPaid.has(row.reference) && row.status !== "success")
      // A pending one would be credited by the reconciler minutes later; at the end of the run it is not.
      .map((row) => `${row.reference} paid, ${row.status}`);
    const paidHere = paymentRows.filter((row) => providerPaid.has(row.reference)).length;
    check(
      "the provider and the portal agree",
      [...unpaid, ...uncredited],
      `${paidHere} paid at the provider, all credited; nothing else credited`,
    );
  }

  const registrations = await inChunks(ids, (chunk) =>
    db
      .select({
        studentId: courseRegistrations.studentId,
        courseId: courseRegistrations.courseId,
        session: courseRegistrations.session,
        unit: courses.unit,
      })
      .from(courseRegistrations)
      .innerJoin(courses, eq(courses.id, courseRegistrations.courseId))
      .where(inArray(courseRegistrations.studentId, chunk)),
  );
  const unitsOf = new Map<string, number>();
  const seen = new Map<string, number>();
  for (const row of registrations) {
    const key = `student ${row.studentId} in ${row.session}`;
    unitsOf.set(key, (unitsOf.get(key) ?? 0) + row.unit);
    const course = `student ${row.studentId} course ${row.courseId} in ${row.session}`;
    seen.set(course, (seen.get(course) ?? 0) + 1);
  }
  const most = Math.max(0, ...unitsOf.values());
  check(
    `no student over ${MAX_UNITS} units in a session`,
    [...unitsOf]
      .filter(([, units]) => units > MAX_UNITS)
      .map(([key, units]) => `${key}: ${units} units`),
    `most units held: ${most}`,
  );
  check(
    "no course registered twice",
    [...seen].filter(([, times]) => times > 1).map(([key, times]) => `${key} ${times} times`),
    `${registrations.length} registrations, each once`,
  );

  const heldBy = new Map<number, number[]>();
  for (const row of registrations.filter((row) => row.session === session)) {
    heldBy.set(row.studentId, [...(heldBy.get(row.studentId) ?? []), row.courseId]);
  }
  const registered = run.outcomes.filter((outcome) => outcome.registeredCourseIds.length > 0);
  check(
    "each student holds the courses they registered",
    // Whether a registration that failed in flight (a timeout) was saved is unknown: not compared.
    run.outcomes
      .filter((outcome) => outcome.failure?.step !== REGISTER_STEP)
      .flatMap((outcome) => {
        const held = [...(heldBy.get(outcome.studentId) ?? [])].sort((a, b) => a - b).join(",");
        const asked = [...outcome.registeredCourseIds].sort((a, b) => a - b).join(",");
        return held === asked
          ? []
          : [`student ${outcome.studentId} holds [${held}], registered [${asked}]`];
      }),
    `${registered.length} students' registrations as they made them`,
  );
  return results;
}
