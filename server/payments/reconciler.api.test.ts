import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPaymentsKit, type PaymentsKit } from "./payments.test-kit.ts";
import { reconcilePendingPayments } from "./reconciler.ts";
import { scheduledWork } from "../jobs/scheduled-work.ts";
import { payments } from "../db/schema.ts";
import type { PaymentGateway } from "./gateway.ts";
import { PaystackError } from "../paystack/client.ts";

let kit: PaymentsKit;
const MINUTE = 60_000;

beforeAll(async () => {
  kit = await createPaymentsKit();
});
afterAll(() => kit.api.close());

const reconcile = (paystack: PaymentGateway = kit.api.deps.gateways.paystack) =>
  reconcilePendingPayments({
    ...kit.api.deps,
    gateways: { ...kit.api.deps.gateways, paystack },
  });

// Each test starts with nothing pending left over from the one before.
async function settleEverything() {
  kit.api.clock.advance(3 * 24 * 60 * MINUTE);
  await reconcile();
}

describe("reconcilePendingPayments", () => {
  it("credits a payment whose browser closed and whose webhook was lost, once it is a few minutes old", async () => {
    await settleEverything();
    const me = await kit.newStudent();
    const reference = await kit.start(me, "full");
    await kit.payAtSandbox(reference); // the webhook is captured, never delivered

    kit.api.clock.advance(4 * MINUTE);
    expect(await reconcile()).toBe(0);
    expect((await kit.paymentRow(reference)).status).toBe("pending");

    kit.api.clock.advance(2 * MINUTE);
    expect(await reconcile()).toBe(1);
    expect((await kit.paymentRow(reference)).status).toBe("success");
    const info = await (
      await kit.api.request(`/student/payment-info/${me.student.id}`, { token: me.token })
    ).json();
    expect(info.data.school_fees_payment.payment_complete).toBe("full");

    // A later run finds nothing to do.
    kit.api.clock.advance(10 * MINUTE);
    expect(await reconcile()).toBe(0);
    expect(kit.creditLines(reference)).toHaveLength(1);
  });

  it("re-checks an unpaid payment every few minutes, then gives up on it after two days", async () => {
    await settleEverything();
    const me = await kit.newStudent();
    const reference = await kit.start(me, "part");
    kit.api.clock.advance(6 * MINUTE);
    await reconcile();
    const checked = await kit.paymentRow(reference);
    expect(checked.status).toBe("pending");
    expect(checked.lastCheckedAt).toEqual(kit.api.clock.now());

    // Checked a minute ago: not again yet.
    let calls = 0;
    const counting: PaymentGateway = {
      ...kit.api.deps.gateways.paystack,
      verify: (ref) => (calls++, kit.api.deps.gateways.paystack.verify(ref)),
    };
    kit.api.clock.advance(MINUTE);
    await reconcile(counting);
    expect(calls).toBe(0);

    kit.api.clock.advance(2 * 24 * 60 * MINUTE);
    await reconcile();
    expect((await kit.paymentRow(reference)).status).toBe("abandoned");
  });

  it("checks a payment older than a day hourly rather than every few minutes", async () => {
    await settleEverything();
    const me = await kit.newStudent();
    const reference = await kit.start(me, "part");
    let calls = 0;
    const counting: PaymentGateway = {
      ...kit.api.deps.gateways.paystack,
      verify: (ref) => (calls++, kit.api.deps.gateways.paystack.verify(ref)),
    };
    kit.api.clock.advance(25 * 60 * MINUTE);
    await reconcile(counting);
    expect(calls).toBe(1);
    kit.api.clock.advance(10 * MINUTE);
    await reconcile(counting);
    expect(calls).toBe(1);
    kit.api.clock.advance(51 * MINUTE);
    await reconcile(counting);
    expect(calls).toBe(2);
    expect((await kit.paymentRow(reference)).status).toBe("pending");
  });

  it("keeps going past a payment Paystack cannot answer for", async () => {
    await settleEverything();
    const first = await kit.newStudent();
    const second = await kit.newStudent();
    const failing = await kit.start(first, "full");
    kit.api.clock.advance(1000);
    const paid = await kit.start(second, "full");
    await kit.payAtSandbox(failing);
    await kit.payAtSandbox(paid);
    kit.api.clock.advance(6 * MINUTE);
    const flaky: PaymentGateway = {
      ...kit.api.deps.gateways.paystack,
      async verify(payment) {
        if (payment.reference === failing)
          throw new PaystackError("Paystack answered verify with HTTP 503", { httpStatus: 503 });
        return kit.api.deps.gateways.paystack.verify(payment);
      },
    };
    expect(await reconcile(flaky)).toBe(1);
    expect((await kit.paymentRow(failing)).status).toBe("pending");
    expect((await kit.paymentRow(paid)).status).toBe("success");
    expect(
      kit.api.logger.lines.some(
        (line) => line.includes("reconcile could not verify") && line.includes(failing),
      ),
    ).toBe(true);
  });

  it("marks a payment Paystack has never heard of as abandoned", async () => {
    await settleEverything();
    const me = await kit.newStudent();
    await kit.api.db.insert(payments).values({
      reference: "CCE-20250101-NEVERSENT000",
      studentId: me.student.id,
      paymentOption: "full",
      level: 100,
      session: "2024/2025",
      amountKobo: 100,
      generatedAt: kit.api.clock.now(),
    });
    kit.api.clock.advance(6 * MINUTE);
    await reconcile();
    expect(await kit.paymentRow("CCE-20250101-NEVERSENT000")).toMatchObject({
      status: "abandoned",
      gatewayResponse: "Paystack has no record of this payment",
    });
  });
});

describe("the reconcile-payments job", () => {
  it("credits a payment whose webhook was lost when the job queue runs it", async () => {
    await settleEverything();
    const me = await kit.newStudent();
    const reference = await kit.start(me, "full");
    await kit.payAtSandbox(reference);
    kit.api.clock.advance(6 * MINUTE);
    await kit.api.jobs.work({
      pollingIntervalSeconds: 0.5,
      scheduled: scheduledWork(kit.api.deps),
    });
    // The schedule may have queued a run already when the queue started; either run will do.
    await kit.api.jobs.runNow("reconcile-payments");
    await expect
      .poll(async () => (await kit.paymentRow(reference)).status, { timeout: 10_000 })
      .toBe("success");
    expect(kit.creditLines(reference)).toHaveLength(1);
  });
});
