import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPaymentsKit, choice, type PaymentsKit } from "./payments.test-kit.ts";
import type { PaymentGateway } from "./gateway.ts";

let kit: PaymentsKit;
beforeAll(async () => {
  kit = await createPaymentsKit();
});
afterAll(() => kit.api.close());

/** Wraps the configured Paystack gateway so a test sees which references it was asked about. */
function watchVerify(gateway: PaymentGateway) {
  const asked: string[] = [];
  const original = gateway.verify;
  gateway.verify = (payment) => {
    asked.push(payment.reference);
    return original(payment);
  };
  return { asked, restore: () => (gateway.verify = original) };
}

describe("the payment gateway seam", () => {
  it("records on each payment the gateway it was started with, for card and offline alike", async () => {
    const me = await kit.newStudent();
    const card = await kit.start(me, "full");
    expect(await kit.paymentRow(card)).toMatchObject({ gateway: "paystack", channel: null });

    const other = await kit.newStudent();
    const response = await kit.post("/student/school-fee/offline", other.token, {
      student_id: other.student.id,
      ...choice("full"),
      channel: "ussd",
      ussd_bank: "737",
    });
    const { reference } = await response.json();
    expect(await kit.paymentRow(reference)).toMatchObject({ gateway: "paystack", channel: "ussd" });
  });

  it("asks the payment's own gateway when the student presses Requery, and credits its answer", async () => {
    const me = await kit.newStudent();
    const reference = await kit.start(me, "full");
    await kit.payAtSandbox(reference);
    const watch = watchVerify(kit.api.deps.gateways.paystack);
    try {
      const response = await kit.verify(reference, me.token);
      expect(response.status).toBe(200);
      expect(watch.asked).toEqual([reference]);
      expect((await kit.paymentRow(reference)).status).toBe("success");
    } finally {
      watch.restore();
    }
  });

  it("refuses, as unsigned, a notification the gateway cannot prove is its own, and changes nothing", async () => {
    const me = await kit.newStudent();
    const reference = await kit.start(me, "full");
    const body = JSON.stringify({
      event: "charge.success",
      data: { reference, status: "success", amount: 12_000_000, currency: "NGN" },
    });
    const response = await kit.deliverWebhook(body, "0".repeat(128));
    expect(response.status).toBe(401);
    expect((await kit.paymentRow(reference)).status).toBe("pending");
  });
});
