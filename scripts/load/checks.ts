import { and, eq, inArray, sql } from "drizzle-orm";
import type { Database } from "../../server/db/client.ts";
import { courseRegistrations, courses, paymentEvents, payments } from "../../server/db/schema.ts";
import { MAX_UNITS } from "../../common/courses/registration-status.ts";
import type { ReconciliationGroup, ReconciliationRow } from "../../common/payments/bursary.ts";
import { REGISTER_STEP, type JourneyOutcome, type StudentAccount } from "./journey.ts";

export type CheckResult = { name: string; ok: boolean; detail: string };

/** What the payment provider (the sandbox) says was paid, by reference; null (and why) when it could not be asked. */
export type ProviderPaid = { paid: Set<string> | null; problem?: string };

/** What the Remita side of a run is checked against. */
export type RemitaEvidence = {
  /** The RRRs the Remita sandbox holds as paid, among every RRR the run issued or the portal holds. */
  paid: ProviderPaid;
  /** The bursary's reconciliation for the run's days, as the staff API answered it. */
  reconciliation: { rows: ReconciliationRow[] } | { problem: string };
};

/** Rows the bursary must act on or cannot place: a run leaves none. */
export const UNEXPLAINED_GROUPS: readonly ReconciliationGroup[] = [
  "paid_not_credited",
  "credited_unknown",
  "mismatch",
  "unchecked",
];

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
    /** Paystack's side: its sandbox's list of paid references. */
    providerPaid: ProviderPaid;
    /** Remita's side, when students paid through Remita. */
    remita?: RemitaEvidence;
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
    "every payment the students made is credited",
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
  const atPaystack = paymentRows.filter((row) => row.gateway === "paystack");
  if (providerPaid === null) {
    results.push({
      name: "Paystack and the portal agree",
      ok: false,
      detail: run.providerPaid.problem ?? "the provider could not be asked",
    });
  } else {
    const unpaid = atPaystack
      .filter((row) => row.status === "success" && !providerPaid.has(row.reference))
      .map((row) => `${row.reference} credited, not paid`);
    const uncredited = atPaystack
      .filter((row) => providerPaid.has(row.reference) && row.status !== "success")
      // A pending one would be credited by the reconciler minutes later; at the end of the run it is not.
      .map((row) => `${row.reference} paid, ${row.status}`);
    const paidHere = atPaystack.filter((row) => providerPaid.has(row.reference)).length;
    check(
      "Paystack and the portal agree",
      [...unpaid, ...uncredited],
      `${paidHere} paid at Paystack, all credited; nothing else credited`,
    );
  }

  if (run.remita) checkRemita(run.remita, paymentRows, eventsOf, check, results);

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

type PaymentRow = typeof payments.$inferSelect;

/**
 * Remita's side: every RRR the sandbox holds as paid credited exactly once, on one payment with
 * one credit event; nothing credited through Remita that it does not hold as paid; and the
 * bursary's reconciliation for the run's days with no row the bursar would have to explain among
 * the run's payments (or naming a payment that is not ours).
 */
function checkRemita(
  remita: RemitaEvidence,
  paymentRows: readonly PaymentRow[],
  creditEventsOf: ReadonlyMap<number, number>,
  check: (name: string, problems: readonly string[], good: string) => void,
  results: CheckResult[],
) {
  const atRemita = paymentRows.filter((row) => row.gateway === "remita");
  const paid = remita.paid.paid;
  const paidName = "every RRR Remita holds as paid is credited exactly once";
  const unpaidName = "nothing is credited through Remita that Remita does not hold as paid";
  if (paid === null) {
    const detail = remita.paid.problem ?? "the Remita sandbox could not be asked";
    results.push({ name: paidName, ok: false, detail }, { name: unpaidName, ok: false, detail });
  } else {
    const rowsOf = new Map<string, PaymentRow[]>();
    for (const row of atRemita) {
      if (row.gatewayReference === null) continue;
      rowsOf.set(row.gatewayReference, [...(rowsOf.get(row.gatewayReference) ?? []), row]);
    }
    check(
      paidName,
      [...paid].flatMap((rrr) => {
        const rows = rowsOf.get(rrr) ?? [];
        if (rows.length === 0) return [`RRR ${rrr} paid, no payment here has it`];
        const credited = rows.filter((row) => row.status === "success");
        if (credited.length !== 1)
          return [`RRR ${rrr} paid, credited on ${credited.length} payments of ${rows.length}`];
        const events = creditEventsOf.get(credited[0]!.id) ?? 0;
        return events === 1 ? [] : [`RRR ${rrr} paid, ${events} credit events`];
      }),
      `${paid.size} RRRs paid at Remita, each credited once`,
    );
    check(
      unpaidName,
      atRemita
        .filter((row) => row.status === "success" && !paid.has(row.gatewayReference ?? ""))
        .map(
          (row) => `${row.reference} (RRR ${row.gatewayReference ?? "none"}) credited, not paid`,
        ),
      `${atRemita.filter((row) => row.status !== "success").length} other Remita payments, none credited`,
    );
  }

  const reconciliationName = "the bursary's reconciliation shows no unexplained row";
  if ("problem" in remita.reconciliation) {
    results.push({ name: reconciliationName, ok: false, detail: remita.reconciliation.problem });
    return;
  }
  const ours = new Set(paymentRows.map((row) => row.reference));
  // Rows of the demo college's own payments are not the run's; a row with no payment here is.
  const runRows = remita.reconciliation.rows.filter(
    (row) => ours.has(row.reference) || row.our_status === null,
  );
  const matched = runRows.filter((row) => row.group === "matched").length;
  check(
    reconciliationName,
    runRows
      .filter((row) => UNEXPLAINED_GROUPS.includes(row.group))
      .map(
        (row) => `${row.reference} ${row.group} (${row.gateway}${row.note ? `: ${row.note}` : ""})`,
      ),
    `${runRows.length} rows for the run's payments, ${matched} matched, none unexplained`,
  );
}
