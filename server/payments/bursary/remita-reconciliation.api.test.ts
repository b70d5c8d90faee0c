import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ReconciliationRow } from "../../../common/payments/bursary.ts";
import { HARNESS_REMITA, payRrrAtSandbox } from "../../testing/api-harness.test-kit.ts";
import type { HarnessOverrides } from "../../testing/api-harness.test-kit.ts";
import { reconcilePendingPayments } from "../reconciler.ts";
import { choice } from "../payments.test-kit.ts";
import { createBursaryKit, type BursaryKit } from "./bursary.test-kit.ts";
import { staffSignIn } from "../../staff/staff.test-kit.ts";

// Remita lists nothing to merchants: the bursary's reconciliation asks Remita's status of each
// unpaid RRR younger than 90 days, in paced batches, beside Paystack's list, in one table
// (decision 190).

const MINUTE = 60_000;
const kits: BursaryKit[] = [];
afterAll(() => Promise.all(kits.map((kit) => kit.api.close())));

async function remitaKit(overrides: HarnessOverrides = {}) {
  const kit = await createBursaryKit({ offeredGateways: ["paystack", "remita"], ...overrides });
  kits.push(kit);
  return kit;
}

async function startedRrr(kit: BursaryKit) {
  const who = await kit.newStudent();
  return { who, ...(await kit.startRrr(who)) };
}

async function report(kit: BursaryKit) {
  const day = kit.today();
  const response = await kit.asBursar(`/staff/reconciliation?from=${day}&to=${day}`);
  expect(response.status).toBe(200);
  const rows = (await response.json()).data.rows as ReconciliationRow[];
  return { rows, row: (reference: string) => rows.find((row) => row.reference === reference) };
}

const UNEXPLAINED = ["paid_not_credited", "credited_unknown", "mismatch", "unchecked"];
const unexplained = (rows: ReconciliationRow[]) =>
  rows.filter((row) => UNEXPLAINED.includes(row.group));

const faults = (kit: BursaryKit, errorShare: number) =>
  kit.api.remitaSandbox.request("/__sandbox/faults", {
    method: "POST",
    headers: {
      authorization: `Bearer ${HARNESS_REMITA.apiKey}`,
      "content-type": "application/json",
    },
    body: JSON.stringify({ errorShare, timeoutShare: 0 }),
  });

/** Counts Remita's status calls, and the most of them in flight at once. */
function countStatusCalls(kit: BursaryKit) {
  const remita = kit.api.deps.gateways.remita;
  const original = remita.verify;
  const seen = { calls: 0, inFlight: 0, mostInFlight: 0 };
  remita.verify = async (payment) => {
    seen.calls += 1;
    seen.inFlight += 1;
    seen.mostInFlight = Math.max(seen.mostInFlight, seen.inFlight);
    try {
      return await original(payment);
    } finally {
      seen.inFlight -= 1;
    }
  };
  return { seen, restore: () => (remita.verify = original) };
}

describe("the reconciliation of Remita's payments", () => {
  let kit: BursaryKit;
  beforeAll(async () => {
    kit = await remitaKit();
  });

  it("shows an RRR paid at a bank whose notification was lost, and is clear once the reconciler credits it", async () => {
    const { reference, rrr } = await startedRrr(kit);
    await payRrrAtSandbox(kit.api, rrr, { notify: false });
    expect((await report(kit)).row(reference)).toMatchObject({
      group: "paid_not_credited",
      gateway: "Remita",
      our_status: "pending",
      gateway_status: "success",
      action: "credit",
    });

    kit.api.clock.advance(6 * MINUTE);
    await reconcilePendingPayments(kit.api.deps);
    expect((await kit.paymentRow(reference)).status).toBe("success");
    const after = await report(kit);
    expect(after.row(reference)).toMatchObject({ group: "matched", gateway: "Remita" });
    expect(unexplained(after.rows)).toEqual([]);
  });

  it("lists what Remita did not answer as unchecked, credits nothing on it, and finds it paid once Remita answers", async () => {
    const { reference, rrr } = await startedRrr(kit);
    await payRrrAtSandbox(kit.api, rrr, { notify: false });
    await faults(kit, 1);
    try {
      expect((await report(kit)).row(reference)).toMatchObject({
        group: "unchecked",
        note: "Remita did not answer: reconcile again later",
        action: null,
      });
    } finally {
      await faults(kit, 0);
    }
    expect((await kit.paymentRow(reference)).status).toBe("pending");
    expect((await report(kit)).row(reference)).toMatchObject({ group: "paid_not_credited" });
  });

  it("sets Paystack's list and Remita's answers in one table", async () => {
    const paystack = await kit.paidPayment({ deliver: false });
    const remita = await startedRrr(kit);
    await payRrrAtSandbox(kit.api, remita.rrr, { notify: false });
    const day = await report(kit);
    expect(day.row(paystack.reference)).toMatchObject({
      group: "paid_not_credited",
      gateway: "Paystack",
    });
    expect(day.row(remita.reference)).toMatchObject({
      group: "paid_not_credited",
      gateway: "Remita",
    });
  });
});

describe("asking Remita one RRR at a time", () => {
  it("asks every unpaid RRR in batches of the size set, never more at once, and not one already credited", async () => {
    const kit = await remitaKit({ oneByOneReconciliation: { batchSize: 2, pauseMs: 0 } });
    const unpaid = [];
    for (let i = 0; i < 5; i++) unpaid.push(await startedRrr(kit));
    const paid = await startedRrr(kit);
    await payRrrAtSandbox(kit.api, paid.rrr, { notify: false });
    await kit.api.request(`/remita/verify/${paid.reference}`, { token: paid.who.token });

    const { seen, restore } = countStatusCalls(kit);
    try {
      const response = await kit.asBursar(
        `/staff/reconciliation?from=${kit.today()}&to=${kit.today()}`,
      );
      expect(response.status).toBe(200);
    } finally {
      restore();
    }
    // The five unpaid; the credited one is placed from our record of Remita's confirmation.
    expect(seen.calls).toBe(5);
    expect(seen.mostInFlight).toBe(2);
  });

  it("does not ask about an unpaid RRR older than 90 days, which no bank takes any more", async () => {
    const kit = await remitaKit();
    const old = await startedRrr(kit);
    const day = kit.today();
    /** Status calls made by the reconciliation of the RRR's day, asked `daysLater`. */
    async function callsForItsDay(daysLater: number) {
      kit.api.clock.advance(daysLater * 24 * 60 * MINUTE);
      // The bursar signs in afresh: a staff session does not last months.
      const token = await staffSignIn(kit.api, kit.bursar);
      const { seen, restore } = countStatusCalls(kit);
      try {
        const response = await kit.api.request(`/staff/reconciliation?from=${day}&to=${day}`, {
          token,
        });
        expect(response.status).toBe(200);
      } finally {
        restore();
      }
      return seen.calls;
    }
    expect(await callsForItsDay(89)).toBe(1);
    expect(await callsForItsDay(2)).toBe(0);
    expect((await kit.paymentRow(old.reference)).status).toBe("pending");
  });

  it("refuses a range with more unpaid RRRs than one reconciliation asks about, and asks none", async () => {
    const kit = await remitaKit({ oneByOneReconciliation: { maxChecks: 2 } });
    for (let i = 0; i < 3; i++) await startedRrr(kit);
    const { seen, restore } = countStatusCalls(kit);
    try {
      const response = await kit.asBursar(
        `/staff/reconciliation?from=${kit.today()}&to=${kit.today()}`,
      );
      expect(response.status).toBe(400);
      expect((await response.json()).message).toBe(
        "Remita would be asked about 3 unpaid payments for these days, more than the 2 one reconciliation asks about. Choose a shorter range.",
      );
    } finally {
      restore();
    }
    expect(seen.calls).toBe(0);
  });
});
