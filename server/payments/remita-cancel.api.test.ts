import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { feeSchedule, paymentEvents } from "../db/schema.ts";
import { HARNESS_REMITA, payRrrAtSandbox } from "../testing/api-harness.test-kit.ts";
import { reconcilePendingPayments } from "./reconciler.ts";
import { choice, createPaymentsKit, type PaymentsKit } from "./payments.test-kit.ts";

// An RRR stays payable at any bank for 90 days: one the portal no longer wants paid is withdrawn
// at Remita before it is closed here, so nobody pays it at a counter afterwards (decision 192).
// The student cancels their own; the reconciler withdraws one left over once the fee is paid
// another way, or once its fee has changed.

let kit: PaymentsKit;
type Who = Awaited<ReturnType<PaymentsKit["newStudent"]>>;
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

beforeAll(async () => {
  kit = await createPaymentsKit({ offeredGateways: ["paystack", "remita"] });
});
afterAll(() => kit.api.close());

const startedRrr = (who: Who, option = "full") => kit.startRrr(who, option);

const cancel = (who: Who, reference: string) =>
  kit.api.request(`/student/school-fee/${reference}/cancel`, { method: "POST", token: who.token });

const sandbox = (path: string, init: { method?: string; body?: string } = {}) =>
  kit.api.remitaSandbox.request(path, {
    ...init,
    headers: {
      authorization: `Bearer ${HARNESS_REMITA.apiKey}`,
      "content-type": "application/json",
    },
  });
const invoiceAtRemita = async (rrr: string) =>
  (await (await sandbox(`/__sandbox/rrr/${rrr}`)).json()).invoice as { status: string };
const faults = (errorShare: number) =>
  sandbox("/__sandbox/faults", {
    method: "POST",
    body: JSON.stringify({ errorShare, timeoutShare: 0 }),
  });

const grouped = (rrr: string) => rrr.match(/\d{4}/g)!.join("-");

async function eventsOf(reference: string) {
  const row = await kit.paymentRow(reference);
  return kit.api.db.select().from(paymentEvents).where(eq(paymentEvents.paymentId, row.id));
}

// Each reconciler test starts with nothing pending left by another: all given up on.
async function settleEverything() {
  kit.api.clock.advance(91 * DAY);
  for (let pass = 0; pass < 50; pass++) {
    await reconcilePendingPayments(kit.api.deps);
    const pending = await kit.api.db.query.payments.findMany({
      where: (payments, { eq }) => eq(payments.status, "pending"),
    });
    if (pending.length === 0) return;
    kit.api.clock.advance(7 * 60 * MINUTE);
  }
  throw new Error("payments stayed pending");
}

describe("POST /student/school-fee/:reference/cancel", () => {
  it("withdraws the RRR at Remita, so no bank can take it, and closes it here", async () => {
    const me = await kit.newStudent();
    const { reference, rrr } = await startedRrr(me);
    const response = await cancel(me, reference);
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.message).toBe(
      `RRR ${grouped(rrr)} is cancelled: it can no longer be paid online or at a bank.`,
    );
    expect(body.data.payment).toMatchObject({
      paystack_ref: reference,
      payment_status: "abandoned",
    });
    expect(await kit.paymentRow(reference)).toMatchObject({
      status: "abandoned",
      gatewayResponse: expect.stringMatching(
        new RegExp(`^You cancelled this RRR ${grouped(rrr)} on .+: it can no longer be paid`),
      ),
    });
    expect(await invoiceAtRemita(rrr)).toMatchObject({ status: "cancelled" });
    // The bank's counter refuses it now.
    expect((await payRrrAtSandbox(kit.api, rrr)).state).toBe("not payable");
    expect(await eventsOf(reference)).toContainEqual(
      expect.objectContaining({
        kind: "abandoned",
        detail: expect.objectContaining({ withdrawn_at: "remita", by: "student" }),
      }),
    );
    // The fee can be paid afresh.
    expect((await startedRrr(me)).rrr).not.toBe(rrr);
  });

  it("credits an RRR Remita already has the money for, and does not cancel it", async () => {
    const me = await kit.newStudent();
    const { reference, rrr } = await startedRrr(me, "part");
    // Paid at a bank; Remita's notification is lost on the way.
    await payRrrAtSandbox(kit.api, rrr, { notify: false });
    const response = await cancel(me, reference);
    expect(response.status).toBe(200);
    expect((await response.json()).message).toBe(
      `RRR ${grouped(rrr)} was already paid, so it was not cancelled: it is credited to your fees.`,
    );
    expect((await kit.paymentRow(reference)).status).toBe("success");
    expect(kit.creditLines(reference)).toHaveLength(1);
    expect(await invoiceAtRemita(rrr)).toMatchObject({ status: "paid" });
  });

  it("keeps the RRR payable and says so when Remita cannot be reached", async () => {
    const me = await kit.newStudent();
    const { reference, rrr } = await startedRrr(me);
    await faults(1);
    try {
      const response = await cancel(me, reference);
      expect(response.status).toBe(502);
      expect((await response.json()).message).toBe(
        "We could not reach Remita to cancel this RRR, so it can still be paid. Please try again in a few minutes.",
      );
    } finally {
      await faults(0);
    }
    expect((await kit.paymentRow(reference)).status).toBe("pending");
    expect(await invoiceAtRemita(rrr)).toMatchObject({ status: "pending" });
  });

  it("answers another student's RRR as unknown, and cancels nothing", async () => {
    const me = await kit.newStudent();
    const other = await kit.newStudent();
    const theirs = await startedRrr(other);
    const response = await cancel(me, theirs.reference);
    expect(response.status).toBe(404);
    expect((await response.json()).message).toMatch(/^We have no payment with that reference/);
    expect((await kit.paymentRow(theirs.reference)).status).toBe("pending");
    expect(await invoiceAtRemita(theirs.rrr)).toMatchObject({ status: "pending" });
  });

  it("refuses a Paystack payment, which closes by itself", async () => {
    const me = await kit.newStudent();
    const reference = await kit.start(me);
    const response = await cancel(me, reference);
    expect(response.status).toBe(409);
    expect((await response.json()).message).toBe(
      "A Paystack payment cannot be cancelled: one that is not paid closes by itself. Start a new payment whenever you are ready.",
    );
    expect((await kit.paymentRow(reference)).status).toBe("pending");
  });

  it("refuses an RRR already credited, or already cancelled", async () => {
    const me = await kit.newStudent();
    const paid = await startedRrr(me, "part");
    await payRrrAtSandbox(kit.api, paid.rrr, { notify: false });
    expect(
      (await kit.api.request(`/remita/verify/${paid.reference}`, { token: me.token })).status,
    ).toBe(200);
    const onPaid = await cancel(me, paid.reference);
    expect(onPaid.status).toBe(409);
    expect((await onPaid.json()).message).toBe(
      "This payment is already paid and credited: it cannot be cancelled.",
    );

    const other = await kit.newStudent();
    const { reference } = await startedRrr(other);
    expect((await cancel(other, reference)).status).toBe(200);
    const twice = await cancel(other, reference);
    expect(twice.status).toBe(409);
    expect((await twice.json()).message).toBe(
      "This payment is abandoned, not waiting to be paid: there is nothing to cancel.",
    );
  });

  it("refuses a reference that is not one, and without a session", async () => {
    const me = await kit.newStudent();
    const bad = await cancel(me, "not a reference");
    expect(bad.status).toBe(400);
    const { reference } = await startedRrr(me);
    const anonymous = await kit.api.request(`/student/school-fee/${reference}/cancel`, {
      method: "POST",
    });
    expect(anonymous.status).toBe(401);
    expect((await kit.paymentRow(reference)).status).toBe("pending");
  });
});

describe("the reconciler and an RRR the portal no longer wants paid", () => {
  it("withdraws an RRR left over once the fee is paid another way", async () => {
    await settleEverything();
    const me = await kit.newStudent();
    const { reference, rrr } = await startedRrr(me, "full");
    // The student pays the same fee by card instead.
    const card = await kit.start(me, "full");
    await kit.payAtSandbox(card);
    expect((await kit.verify(card, me.token)).status).toBe(200);

    kit.api.clock.advance(6 * MINUTE);
    await reconcilePendingPayments(kit.api.deps);
    expect(await kit.paymentRow(reference)).toMatchObject({
      status: "abandoned",
      gatewayResponse:
        "Your school fees for 100 level, 2024/2025 were paid by another payment, so this one was withdrawn and can no longer be paid.",
    });
    expect(await invoiceAtRemita(rrr)).toMatchObject({ status: "cancelled" });
    expect((await payRrrAtSandbox(kit.api, rrr)).state).toBe("not payable");
  });

  it("withdraws an RRR whose fee changed and stayed unpaid a day, and keeps one Remita cannot reach open", async () => {
    await settleEverything();
    const me = await kit.newStudent();
    const { reference, rrr } = await startedRrr(me, "part");
    const [fee] = await kit.api.db
      .select()
      .from(feeSchedule)
      .where(
        and(
          eq(feeSchedule.paymentOption, "part"),
          eq(feeSchedule.level, 100),
          eq(feeSchedule.session, "2024/2025"),
        ),
      );
    await kit.api.db
      .update(feeSchedule)
      .set({ amountKobo: fee!.amountKobo + 500_000 })
      .where(eq(feeSchedule.id, fee!.id));
    try {
      kit.api.clock.advance(DAY + MINUTE);
      await faults(1);
      await reconcilePendingPayments(kit.api.deps).finally(() => faults(0));
      expect((await kit.paymentRow(reference)).status).toBe("pending");

      kit.api.clock.advance(61 * MINUTE);
      await reconcilePendingPayments(kit.api.deps);
      expect(await kit.paymentRow(reference)).toMatchObject({
        status: "abandoned",
        gatewayResponse: expect.stringMatching(/^The fee changed to ₦/),
      });
      expect(await invoiceAtRemita(rrr)).toMatchObject({ status: "cancelled" });
    } finally {
      await kit.api.db
        .update(feeSchedule)
        .set({ amountKobo: fee!.amountKobo })
        .where(eq(feeSchedule.id, fee!.id));
    }
  });
});
