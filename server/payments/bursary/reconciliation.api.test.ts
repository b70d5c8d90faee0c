import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, feeStatusFlags, paymentEvents, payments } from "../../db/schema.ts";
import type { ReconciliationRow } from "../../../common/payments/bursary.ts";
import { createBursaryKit, type BursaryKit } from "./bursary.test-kit.ts";

let kit: BursaryKit;
beforeAll(async () => {
  kit = await createBursaryKit();
});
afterAll(() => kit.api.close());

async function report(query = `from=${kit.today()}&to=${kit.today()}`) {
  const response = await kit.asBursar(`/staff/reconciliation?${query}`);
  expect(response.status).toBe(200);
  const { data } = await response.json();
  return {
    ...data,
    row: (reference: string) =>
      (data.rows as ReconciliationRow[]).find((row) => row.reference === reference),
  };
}

describe("the day's reconciliation against Paystack's own records", () => {
  it("a payment whose webhook never arrived is 'paid at Paystack, not credited'; one click credits it once", async () => {
    const { reference } = await kit.paidPayment({ deliver: false });
    const before = await report();
    expect(before.row(reference)).toMatchObject({
      group: "paid_not_credited",
      our_status: "pending",
      gateway_status: "success",
      action: "credit",
    });

    const clicks = await Promise.all(
      [1, 2].map(() =>
        kit.asBursar("/staff/reconciliation/credit", { method: "POST", json: { reference } }),
      ),
    );
    expect(clicks.map((click) => click.status)).toEqual([200, 200]);
    expect(kit.creditLines(reference)).toHaveLength(1);
    expect((await kit.paymentRow(reference)).status).toBe("success");
    expect((await report()).row(reference)).toMatchObject({ group: "matched", action: null });
    const audits = await kit.api.db.select().from(auditLog).where(eq(auditLog.entityId, reference));
    expect(audits.map((row) => [row.action, row.staffId])).toEqual([
      ["payment.verify_credit", kit.bursar.id],
      ["payment.verify_credit", kit.bursar.id],
    ]);
  });

  it("lists amount mismatches, and counts each group", async () => {
    const who = await kit.newStudent();
    const reference = await kit.start(who);
    await kit.payAtSandbox(reference);
    const tampered = JSON.parse(kit.webhookFor(reference));
    tampered.data.amount = 100;
    await kit.deliverWebhook(JSON.stringify(tampered));
    const day = await report();
    expect(day.row(reference)).toMatchObject({ group: "mismatch", our_status: "mismatch" });
    expect(day.totals.mismatch.count).toBeGreaterThanOrEqual(1);
  });

  it("a charge reversed at Paystack after crediting shows as credited here, not at Paystack; recording it un-credits and flags the student", async () => {
    const { reference, who } = await kit.paidPayment();
    expect((await kit.sandboxHook(`/__sandbox/transactions/${reference}/reverse`)).status).toBe(
      200,
    );
    expect((await report()).row(reference)).toMatchObject({
      group: "credited_unknown",
      gateway_status: "reversed",
      action: "uncredit",
    });

    const taken = await kit.asBursar("/staff/reconciliation/uncredit", {
      method: "POST",
      json: { reference },
    });
    expect(taken.status).toBe(200);
    const { surname, othername } = who.student;
    expect((await taken.json()).message).toMatch(
      new RegExp(
        `^Reversal recorded: the credit of ₦[\\d,.]+ for ${surname} ${othername}.*, ${reference}, is taken back`,
      ),
    );
    expect((await kit.paymentRow(reference)).status).toBe("reversed");
    const info = await (
      await kit.api.request(`/student/payment-info/${who.student.id}`, { token: who.token })
    ).json();
    expect(info.data.school_fee_payment[0].payment_status).toBe("reversed");
    const [flag] = await kit.api.db
      .select()
      .from(feeStatusFlags)
      .where(eq(feeStatusFlags.studentId, who.student.id));
    expect(flag?.reason).toContain("reversed at Paystack");
    const [audit] = await kit.api.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, "payment.uncredit"));
    expect(audit).toMatchObject({
      staffId: kit.bursar.id,
      entityId: reference,
      after: { status: "reversed" },
    });
    // Not a second time, and a replayed charge.success does not credit it again.
    expect(
      (
        await kit.asBursar("/staff/reconciliation/uncredit", {
          method: "POST",
          json: { reference },
        })
      ).status,
    ).toBe(409);
    await kit.deliverWebhook(kit.webhookFor(reference));
    expect((await kit.paymentRow(reference)).status).toBe("reversed");
  });

  it("refuses to take back a credit Paystack still calls successful", async () => {
    const { reference } = await kit.paidPayment();
    const response = await kit.asBursar("/staff/reconciliation/uncredit", {
      method: "POST",
      json: { reference },
    });
    expect(response.status).toBe(409);
    expect((await kit.paymentRow(reference)).status).toBe("success");
  });

  it("a credit Paystack has no transaction for is 'credited here, not paid at the gateway'; a session filter keeps to that session", async () => {
    const { student } = await kit.newStudent();
    const reference = "ENTERED-BY-HAND-1";
    await kit.api.db.insert(payments).values({
      reference,
      studentId: student.id,
      paymentOption: "full",
      level: 100,
      session: "2024/2025",
      amountKobo: 12_000_000,
      status: "success",
      generatedAt: kit.api.clock.now(),
    });
    expect((await report()).row(reference)).toMatchObject({
      group: "credited_unknown",
      gateway_status: null,
      action: null,
    });
    expect(
      (await report(`from=${kit.today()}&to=${kit.today()}&session=2023/2024`)).row(reference),
    ).toBeUndefined();
  });

  it("exports the report as CSV", async () => {
    const response = await kit.asBursar(
      `/staff/reconciliation.csv?from=${kit.today()}&to=${kit.today()}`,
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/csv");
    const text = await response.text();
    expect(text.split("\r\n")[0]).toBe(
      '"group","reference","student","matric_no","session","our_status","our_amount","our_currency","gateway_status","gateway_amount","gateway_currency","created_at","note","gateway"',
    );
    expect(text).toContain('"Matched"');
  });
});

describe("a reconciliation refuses what it cannot do, and changes nothing", () => {
  it.each([
    ["a range over the 31-day maximum", "from=2025-01-01&to=2025-02-01", "at most 31 days"],
    ["a start after the end", "from=2025-01-15&to=2025-01-14", "must not be after"],
    ["no dates", "", "YYYY-MM-DD"],
    ["a session written wrongly", "from=2025-01-15&to=2025-01-15&session=2024-25", "2024/2025"],
  ])("%s: a clear 400", async (_case, query, message) => {
    const counted = async () => [
      (await kit.api.db.select({ n: count() }).from(paymentEvents))[0]!.n,
      (await kit.api.db.select({ n: count() }).from(auditLog))[0]!.n,
    ];
    const before = await counted();
    for (const path of ["/staff/reconciliation", "/staff/reconciliation.csv"]) {
      const response = await kit.asBursar(`${path}?${query}`);
      expect(response.status).toBe(400);
      expect((await response.json()).error.message).toContain(message);
    }
    expect(await counted()).toEqual(before);
  });

  it("the one-click actions validate their body and refuse unknown references", async () => {
    expect(
      (await kit.asBursar("/staff/reconciliation/credit", { method: "POST", json: {} })).status,
    ).toBe(400);
    expect(
      (
        await kit.asBursar("/staff/reconciliation/credit", {
          method: "POST",
          json: { reference: "NOPE-1" },
        })
      ).status,
    ).toBe(404);
    const text = await kit.api.request("/staff/reconciliation/credit", {
      method: "POST",
      body: "reference=x",
      headers: { "content-type": "text/plain" },
    });
    expect([401, 415]).toContain(text.status);
  });

  it("answers 502, not 500, when Paystack cannot be reached", async () => {
    const broken = await createBursaryKit();
    broken.api.deps.gateways.paystack.listTransactions = async () => {
      throw new (await import("../../paystack/client.ts")).PaystackError("down");
    };
    const response = await broken.asBursar(
      `/staff/reconciliation?from=${broken.today()}&to=${broken.today()}`,
    );
    expect(response.status).toBe(502);
    await broken.api.close();
  });
});
