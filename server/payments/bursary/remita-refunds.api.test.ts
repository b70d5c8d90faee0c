import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, refunds } from "../../db/schema.ts";
import { payRrrAtSandbox } from "../../testing/api-harness.test-kit.ts";
import { choice } from "../payments.test-kit.ts";
import { createBursaryKit, type BursaryKit } from "./bursary.test-kit.ts";

// Remita has no refund API for merchants: a refund of a Remita payment is recorded with the
// student's bank details, paid by the bursary by bank transfer, then marked paid or not paid
// (decision 190). The student's fee status follows as when Paystack settles a refund.

let kit: BursaryKit;
type Who = Awaited<ReturnType<BursaryKit["newStudent"]>>;
const BANK = { account_name: "Hauwa Musa", account_number: "0123456789", bank: "Zenith Bank" };

beforeAll(async () => {
  // Above the ₦120,000 fee: these refunds need no second approver, unless a test says so.
  kit = await createBursaryKit({
    offeredGateways: ["paystack", "remita"],
    refundSecondApprovalKobo: 20_000_000,
  });
});
afterAll(() => kit.api.close());

/** A new student's full school fee paid through an RRR and credited; Remita's refund calls counted. */
async function paidThroughRemita() {
  const who = await kit.newStudent();
  const { reference, rrr } = await kit.startRrr(who);
  await payRrrAtSandbox(kit.api, rrr, { notify: false });
  expect((await kit.api.request(`/remita/verify/${reference}`, { token: who.token })).status).toBe(
    200,
  );
  return { who, reference };
}

const askRefund = (reference: string, extra: Record<string, unknown> = {}) =>
  kit.asBursar("/staff/refunds", {
    method: "POST",
    json: { reference, reason: "Left the college before lectures", ...BANK, ...extra },
  });

async function refundOf(reference: string) {
  const [row] = await kit.api.db
    .select()
    .from(refunds)
    .where(eq(refunds.paymentId, (await kit.paymentRow(reference)).id))
    .orderBy(refunds.id);
  return row!;
}

async function feeComplete(who: Who) {
  const info = await (
    await kit.api.request(`/student/payment-info/${who.student.id}`, { token: who.token })
  ).json();
  return info.data.school_fees_payment.payment_complete;
}

const markPaid = (id: number, transfer_reference: string) =>
  kit.asBursar(`/staff/refunds/${id}/paid-outside`, {
    method: "POST",
    json: { transfer_reference },
  });
const markNotPaid = (id: number, reason: string) =>
  kit.asBursar(`/staff/refunds/${id}/not-paid-outside`, { method: "POST", json: { reason } });

const auditRows = (action: string, reference: string) =>
  kit.api.db
    .select()
    .from(auditLog)
    .where(eq(auditLog.action, action))
    .then((rows) => rows.filter((row) => row.entityId === reference));

describe("a refund of a Remita payment", () => {
  it("is recorded to pay outside the portal with the bank details, and Remita is never asked", async () => {
    const { who, reference } = await paidThroughRemita();
    const remita = kit.api.deps.gateways.remita;
    const original = remita.refund;
    let asked = 0;
    remita.refund = (input) => (asked++, original(input));
    try {
      const response = await askRefund(reference);
      expect(response.status).toBe(201);
      expect((await response.json()).message).toBe(
        `Refund of ₦120,000.00 to ${who.student.surname} ${who.student.othername} for payment ${reference} recorded, to pay outside the portal: Remita has no refunds. Pay it by bank transfer to Hauwa Musa, account 0123456789 at Zenith Bank, then mark it paid under Refunds with the bank's transfer reference. The payment no longer counts towards the student's fees.`,
      );
    } finally {
      remita.refund = original;
    }
    expect(asked).toBe(0);
    expect(await refundOf(reference)).toMatchObject({
      status: "pending",
      outside: true,
      amountKobo: 12_000_000,
      payeeAccountName: "Hauwa Musa",
      payeeAccountNumber: "0123456789",
      payeeBank: "Zenith Bank",
    });
    expect((await kit.paymentRow(reference)).status).toBe("refunding");
    const queue = (await (await kit.asBursar("/staff/refunds")).json()).data;
    expect(queue.to_pay_outside).toContainEqual(
      expect.objectContaining({ reference, payee: BANK, amount_kobo: 12_000_000 }),
    );
  });

  it("refuses missing or malformed bank details, naming each, and changes nothing", async () => {
    const { reference } = await paidThroughRemita();
    const missing = await askRefund(reference, { account_name: "", bank: undefined });
    expect(missing.status).toBe(400);
    expect((await missing.json()).error.fields).toEqual({
      account_name: "Give the name on the student's bank account.",
      bank: "Name the student's bank.",
    });
    const malformed = await askRefund(reference, { account_number: "12345" });
    expect(malformed.status).toBe(400);
    expect((await malformed.json()).error.fields).toHaveProperty("account_number");
    expect((await kit.paymentRow(reference)).status).toBe("success");
    const rows = await kit.api.db
      .select()
      .from(refunds)
      .where(eq(refunds.paymentId, (await kit.paymentRow(reference)).id));
    expect(rows).toEqual([]);
  });

  it("marked paid with the bank's reference: refunded, audited, the fee unpaid again; one transfer pays one refund", async () => {
    const { who, reference } = await paidThroughRemita();
    expect(await feeComplete(who)).toBe("full");
    expect((await askRefund(reference)).status).toBe(201);
    const refund = await refundOf(reference);

    const paid = await markPaid(refund.id, "TRF-REMITA-0001");
    expect(paid.status).toBe(200);
    expect((await paid.json()).message).toMatch(
      /marked paid outside the portal, by the transfer TRF-REMITA-0001\. The payment no longer counts towards the student's fees\.$/,
    );
    expect(await refundOf(reference)).toMatchObject({
      status: "processed",
      transferReference: "TRF-REMITA-0001",
    });
    expect((await kit.paymentRow(reference)).status).toBe("refunded");
    expect(await feeComplete(who)).not.toBe("full");
    expect(await auditRows("payment.refund_paid_outside", reference)).toHaveLength(1);

    const twice = await markPaid(refund.id, "TRF-REMITA-0002");
    expect(twice.status).toBe(409);
    expect((await twice.json()).message).toBe(
      "This refund is already marked paid, by the transfer TRF-REMITA-0001.",
    );

    const other = await paidThroughRemita();
    expect((await askRefund(other.reference)).status).toBe(201);
    const second = await refundOf(other.reference);
    // Banks print references in capitals or not; typed either way it is the same transfer.
    for (const again of ["TRF-REMITA-0001", "trf-remita-0001"]) {
      const reused = await markPaid(second.id, again);
      expect(reused.status, again).toBe(409);
      expect((await reused.json()).error.fields, again).toEqual({
        transfer_reference: "Already used for another refund.",
      });
    }
    expect((await refundOf(other.reference)).status).toBe("pending");
    expect((await kit.paymentRow(other.reference)).status).toBe("refunding");
  });

  it("marked paid and not paid at once by two bursary officers: one wins, the other is told, one audit row", async () => {
    const { reference } = await paidThroughRemita();
    expect((await askRefund(reference)).status).toBe(201);
    const refund = await refundOf(reference);
    const [paid, notPaid] = await Promise.all([
      markPaid(refund.id, "TRF-RACE-0001"),
      markNotPaid(refund.id, "The account number was wrong"),
    ]);
    expect([paid.status, notPaid.status].sort()).toEqual([200, 409]);
    const settled = await refundOf(reference);
    const audited = [
      ...(await auditRows("payment.refund_paid_outside", reference)),
      ...(await auditRows("payment.refund_not_paid_outside", reference)),
    ];
    expect(audited).toHaveLength(1);
    if (paid.status === 200) {
      expect(settled).toMatchObject({ status: "processed", transferReference: "TRF-RACE-0001" });
      expect((await kit.paymentRow(reference)).status).toBe("refunded");
      expect(audited[0]!.action).toBe("payment.refund_paid_outside");
    } else {
      expect(settled).toMatchObject({ status: "failed", transferReference: null });
      expect((await kit.paymentRow(reference)).status).toBe("success");
      expect(audited[0]!.action).toBe("payment.refund_not_paid_outside");
    }
  });

  it("marked not paid with a reason: the payment counts again and can be refunded afresh", async () => {
    const { who, reference } = await paidThroughRemita();
    expect((await askRefund(reference)).status).toBe(201);
    const refund = await refundOf(reference);
    const response = await markNotPaid(refund.id, "The account number was wrong");
    expect(response.status).toBe(200);
    expect((await response.json()).message).toMatch(/The payment is success again/);
    expect(await refundOf(reference)).toMatchObject({ status: "failed" });
    expect((await kit.paymentRow(reference)).status).toBe("success");
    expect(await feeComplete(who)).toBe("full");
    expect(await auditRows("payment.refund_not_paid_outside", reference)).toHaveLength(1);
    expect((await askRefund(reference, { account_number: "9876543210" })).status).toBe(201);
  });

  it("cannot be marked paid while it waits for its second approver", async () => {
    const strict = await createBursaryKit({
      offeredGateways: ["paystack", "remita"],
      refundSecondApprovalKobo: 5_000_000,
    });
    try {
      const who = await strict.newStudent();
      const started = await strict.startRrr(who);
      await payRrrAtSandbox(strict.api, started.rrr, { notify: false });
      await strict.api.request(`/remita/verify/${started.reference}`, { token: who.token });
      const asked = await strict.asBursar("/staff/refunds", {
        method: "POST",
        json: { reference: started.reference, reason: "Withdrew", ...BANK },
      });
      expect((await asked.json()).message).toMatch(/^Refund waiting for a second approver/);
      const [refund] = await strict.api.db.select().from(refunds);
      const early = await strict.asBursar(`/staff/refunds/${refund!.id}/paid-outside`, {
        method: "POST",
        json: { transfer_reference: "TRF-EARLY-01" },
      });
      expect(early.status).toBe(409);
      expect((await early.json()).message).toBe(
        "This refund still waits for its second approver: pay it only once it is approved.",
      );
      expect((await strict.paymentRow(started.reference)).status).toBe("success");
    } finally {
      await strict.api.close();
    }
  });

  it("a Paystack refund cannot be marked paid outside the portal", async () => {
    const { reference } = await kit.paidPayment();
    const asked = await kit.asBursar("/staff/refunds", {
      method: "POST",
      json: { reference, reason: "Paid by mistake" },
    });
    expect(asked.status).toBe(201);
    const refund = await refundOf(reference);
    const response = await markPaid(refund.id, "TRF-PAYSTACK-01");
    expect(response.status).toBe(409);
    expect((await response.json()).message).toMatch(
      /^This refund goes through the payment's gateway/,
    );
    expect((await refundOf(reference)).status).toBe(refund.status);
  });
});
