import { randomBytes } from "node:crypto";
import { asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../../server/db/client.ts";
import { insertSchool, insertSessions } from "../../server/db/factories.ts";
import {
  courseRegistrations,
  courses,
  paymentEvents,
  payments,
  students,
} from "../../server/db/schema.ts";
import { insertCatalogue } from "../../server/courses/seed.ts";
import { seedFees } from "../../server/payments/seed.ts";
import { openTestDatabase } from "../../server/testing/test-database.test-kit.ts";
import { verifyPassword } from "../../server/auth/password.ts";
import { createStudentAccounts, LOAD_PASSWORD } from "./accounts.ts";
import { checkDatabase, type CheckResult, type RemitaEvidence } from "./checks.ts";
import type { ReconciliationRow } from "../../common/payments/bursary.ts";
import type { JourneyOutcome, StudentAccount } from "./journey.ts";

let database: DatabaseHandle;
let catalogue: { id: number; unit: number }[];

beforeAll(async () => {
  database = await openTestDatabase();
  const { db } = database;
  await insertSessions(db);
  await insertSchool(db, {
    name: "School of Sciences",
    departments: ["Biology"],
    programmes: ["NCE Biology/Chemistry"],
  });
  await insertCatalogue(db);
  await seedFees(db);
  catalogue = await db
    .select({ id: courses.id, unit: courses.unit })
    .from(courses)
    .orderBy(asc(courses.id));
}, 60_000);

afterAll(() => database.close());

/** A student who did everything: paid and credited once at the quoted amount, registered 10 units. */
async function studentWhoFinished() {
  const { db } = database;
  const [account] = await createStudentAccounts(db, 1);
  const reference = `LOAD-${randomBytes(6).toString("hex")}`;
  const amountKobo = 120_000_00;
  const [payment] = await db
    .insert(payments)
    .values({
      reference,
      studentId: account!.id,
      paymentOption: account!.paymentOption,
      level: account!.level,
      session: account!.session,
      amountKobo,
      paidAmountKobo: amountKobo,
      paidCurrency: "NGN",
      status: "success",
    })
    .returning();
  await db
    .insert(paymentEvents)
    .values({ paymentId: payment!.id, at: new Date(), kind: "credited" });
  const chosen = coursesWorth(10);
  await register(account!, chosen);
  const outcome: JourneyOutcome = {
    studentId: account!.id,
    completed: true,
    quotedNaira: amountKobo / 100,
    paidReference: reference,
    registeredCourseIds: chosen,
  };
  return { account: account!, outcome, payment: payment!, providerPaid: new Set([reference]) };
}

function coursesWorth(units: number) {
  const chosen: number[] = [];
  let total = 0;
  for (const course of catalogue) {
    if (total >= units) break;
    chosen.push(course.id);
    total += course.unit;
  }
  return chosen;
}

const register = (account: StudentAccount, courseIds: number[]) =>
  database.db.insert(courseRegistrations).values(
    courseIds.map((courseId) => ({
      studentId: account.id,
      courseId,
      session: account.session,
      level: account.level,
      semester: 1,
    })),
  );

async function check(
  run: Awaited<ReturnType<typeof studentWhoFinished>>,
  provider: Set<string> | null = run.providerPaid,
  remita?: RemitaEvidence,
) {
  return checkDatabase(database.db, {
    accounts: [run.account],
    outcomes: [run.outcome],
    providerPaid: {
      paid: provider,
      problem: provider ? undefined : "the sandbox answered HTTP 401",
    },
    remita,
  });
}

/** A student who paid an RRR, credited once; Remita holds it as paid and the bursary matched it. */
async function remitaStudentWhoFinished() {
  const run = await studentWhoFinished();
  const rrr = String(100_000_000_000 + run.payment.id);
  await database.db
    .update(payments)
    .set({ gateway: "remita", channel: "remita", gatewayReference: rrr })
    .where(eq(payments.id, run.payment.id));
  const outcome: JourneyOutcome = { ...run.outcome, gateway: "remita", rrr };
  return {
    ...run,
    outcome,
    rrr,
    providerPaid: new Set<string>(),
    remita: {
      paid: { paid: new Set([rrr]) },
      reconciliation: { rows: [reconciliationRow(run.payment.reference, "matched")] },
    } satisfies RemitaEvidence,
  };
}

function reconciliationRow(
  reference: string,
  group: ReconciliationRow["group"],
  ourStatus: string | null = "success",
): ReconciliationRow {
  return {
    group,
    reference,
    gateway: "Remita",
    student_name: null,
    matric_no: null,
    session: "2024/2025",
    our_status: ourStatus,
    our_amount_kobo: 120_000_00,
    our_currency: "NGN",
    gateway_status: "success",
    gateway_amount_kobo: 120_000_00,
    gateway_currency: "NGN",
    created_at: new Date().toISOString(),
    note: "",
    action: null,
  };
}

const failed = (results: CheckResult[]) =>
  results.filter((result) => !result.ok).map((result) => result.name);

describe("checkDatabase", () => {
  it("passes a student who paid once, was credited once and registered within the cap", async () => {
    const results = await check(await studentWhoFinished());
    expect(failed(results)).toEqual([]);
    expect(results).toHaveLength(8);
  });

  it("fails a payment made at the checkout and still pending, on both sides' evidence", async () => {
    const run = await studentWhoFinished();
    await database.db
      .update(payments)
      .set({ status: "pending" })
      .where(eq(payments.id, run.payment.id));
    await database.db.delete(paymentEvents).where(eq(paymentEvents.paymentId, run.payment.id));
    const results = await check(run);
    expect(failed(results)).toEqual([
      "every payment the students made is credited",
      "Paystack and the portal agree",
    ]);
    expect(results.find((result) => !result.ok)!.detail).toContain(
      `${run.payment.reference} is pending`,
    );
  });

  it("fails a second credited payment for the same student, which the one-per-option index allows", async () => {
    const run = await studentWhoFinished();
    const other = run.account.paymentOption === "full" ? "part" : "full";
    const { id: _first, ...firstPayment } = run.payment;
    const [second] = await database.db
      .insert(payments)
      .values({ ...firstPayment, reference: `${run.payment.reference}-2`, paymentOption: other })
      .returning();
    await database.db
      .insert(paymentEvents)
      .values({ paymentId: second!.id, at: new Date(), kind: "credited" });
    const results = await check(run, new Set([run.payment.reference, second!.reference]));
    expect(failed(results)).toEqual([
      "at most one credited payment per student",
      "credited amounts are the quoted amounts",
    ]);
  });

  it("fails a credited amount that is not the quoted one", async () => {
    const run = await studentWhoFinished();
    const results = await check({ ...run, outcome: { ...run.outcome, quotedNaira: 100_000 } });
    expect(failed(results)).toEqual(["credited amounts are the quoted amounts"]);
  });

  it("fails a payment credited twice in its history", async () => {
    const run = await studentWhoFinished();
    await database.db
      .insert(paymentEvents)
      .values({ paymentId: run.payment.id, at: new Date(), kind: "credited" });
    expect(failed(await check(run))).toEqual(["one credit event per credited payment"]);
  });

  it("fails a credit the provider never took, and says so when the provider cannot be asked", async () => {
    const run = await studentWhoFinished();
    expect(failed(await check(run, new Set()))).toEqual(["Paystack and the portal agree"]);
    const unasked = await check(run, null);
    expect(unasked.find((result) => !result.ok)).toMatchObject({
      name: "Paystack and the portal agree",
      detail: "the sandbox answered HTTP 401",
    });
  });

  it("fails a student over 80 units, and registrations other than the ones the student made", async () => {
    const run = await studentWhoFinished();
    const more = catalogue.filter((course) => !run.outcome.registeredCourseIds.includes(course.id));
    let units = 10;
    const extra: number[] = [];
    for (const course of more) {
      if (units > 80) break;
      extra.push(course.id);
      units += course.unit;
    }
    await register(run.account, extra);
    const results = await check(run);
    expect(failed(results)).toEqual([
      "no student over 80 units in a session",
      "each student holds the courses they registered",
    ]);
  });

  it("does not compare the registrations of a student whose register request failed in flight", async () => {
    const run = await studentWhoFinished();
    const cutOff = {
      ...run.outcome,
      completed: false,
      registeredCourseIds: [],
      failure: { step: "register courses", problem: "timed out" },
    };
    expect(failed(await check({ ...run, outcome: cutOff }))).toEqual([]);
  });

  it("fails a course held twice (with the unique index that forbids it dropped, in this test's own database)", async () => {
    const run = await studentWhoFinished();
    await database.db.execute(
      sql`drop index course_registrations_student_id_course_id_session_index`,
    );
    await register(run.account, run.outcome.registeredCourseIds.slice(0, 1));
    const results = await check(run);
    expect(failed(results)).toContain("no course registered twice");
  });

  describe("with Remita", () => {
    it("passes an RRR Remita holds as paid, credited once here, matched by the bursary", async () => {
      const run = await remitaStudentWhoFinished();
      const results = await check(run, run.providerPaid, run.remita);
      expect(failed(results)).toEqual([]);
      expect(results.map((result) => result.name)).toEqual(
        expect.arrayContaining([
          "every RRR Remita holds as paid is credited exactly once",
          "nothing is credited through Remita that Remita does not hold as paid",
          "the bursary's reconciliation shows no unexplained row",
        ]),
      );
    });

    it("fails an RRR Remita holds as paid that is still pending here", async () => {
      const run = await remitaStudentWhoFinished();
      await database.db
        .update(payments)
        .set({ status: "pending" })
        .where(eq(payments.id, run.payment.id));
      await database.db.delete(paymentEvents).where(eq(paymentEvents.paymentId, run.payment.id));
      const results = await check(run, run.providerPaid, run.remita);
      expect(failed(results)).toEqual([
        "every payment the students made is credited",
        "every RRR Remita holds as paid is credited exactly once",
      ]);
      expect(results.find((result) => result.name.startsWith("every RRR"))!.detail).toBe(
        `RRR ${run.rrr} paid, credited on 0 payments of 1`,
      );
    });

    it("fails an RRR Remita holds as paid that no payment here has", async () => {
      const run = await remitaStudentWhoFinished();
      const remita = { ...run.remita, paid: { paid: new Set([run.rrr, "555555555555"]) } };
      const results = await check(run, run.providerPaid, remita);
      expect(failed(results)).toEqual(["every RRR Remita holds as paid is credited exactly once"]);
      expect(results.find((result) => !result.ok)!.detail).toBe(
        "RRR 555555555555 paid, no payment here has it",
      );
    });

    it("fails an RRR credited twice in its history", async () => {
      const run = await remitaStudentWhoFinished();
      await database.db
        .insert(paymentEvents)
        .values({ paymentId: run.payment.id, at: new Date(), kind: "credited" });
      expect(failed(await check(run, run.providerPaid, run.remita))).toEqual([
        "one credit event per credited payment",
        "every RRR Remita holds as paid is credited exactly once",
      ]);
    });

    it("fails a credit through Remita that Remita does not hold as paid, and says why when it cannot be asked", async () => {
      const run = await remitaStudentWhoFinished();
      const notPaid = { ...run.remita, paid: { paid: new Set<string>() } };
      const results = await check(run, run.providerPaid, notPaid);
      expect(failed(results)).toEqual([
        "nothing is credited through Remita that Remita does not hold as paid",
      ]);
      expect(results.find((result) => !result.ok)!.detail).toBe(
        `${run.payment.reference} (RRR ${run.rrr}) credited, not paid`,
      );
      const unasked = { ...run.remita, paid: { paid: null, problem: "the sandbox is gone" } };
      const both = (await check(run, run.providerPaid, unasked)).filter((result) => !result.ok);
      expect(both.map((result) => result.detail)).toEqual([
        "the sandbox is gone",
        "the sandbox is gone",
      ]);
    });

    it("fails the run's unexplained reconciliation rows, and a row naming no payment here, but not the demo college's", async () => {
      const run = await remitaStudentWhoFinished();
      const rows = [
        reconciliationRow(run.payment.reference, "matched"),
        reconciliationRow("CCE-DEMO-COLLEGE-PAYMENT", "credited_unknown"),
      ];
      const clean = { ...run.remita, reconciliation: { rows } };
      expect(failed(await check(run, run.providerPaid, clean))).toEqual([]);

      for (const unexplained of [
        reconciliationRow(run.payment.reference, "unchecked"),
        reconciliationRow("CCE-NOBODY", "paid_not_credited", null),
      ]) {
        const evidence = { ...run.remita, reconciliation: { rows: [...rows, unexplained] } };
        const results = await check(run, run.providerPaid, evidence);
        expect(failed(results)).toEqual(["the bursary's reconciliation shows no unexplained row"]);
        expect(results.find((result) => !result.ok)!.detail).toContain(unexplained.reference);
      }

      const unread = { ...run.remita, reconciliation: { problem: "bursar: sign in: HTTP 401" } };
      expect((await check(run, run.providerPaid, unread)).find((result) => !result.ok)).toEqual({
        name: "the bursary's reconciliation shows no unexplained row",
        ok: false,
        detail: "bursar: sign in: HTTP 401",
      });
    });
  });

  it("makes accounts that sign in with the load password, each with its own phone", async () => {
    const accounts = await createStudentAccounts(database.db, 3);
    expect(new Set(accounts.map((account) => account.phone)).size).toBe(3);
    const rows = await database.db.select().from(students).where(eq(students.id, accounts[0]!.id));
    expect(rows[0]!.othername).toBe(accounts[0]!.othername);
    expect(await verifyPassword(LOAD_PASSWORD, rows[0]!.passwordHash)).toBe(true);
    expect(accounts.map((account) => account.paymentOption)).toEqual(["full", "full", "full"]);
  });
});
