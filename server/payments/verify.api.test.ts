import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPaymentsKit, FULL_100_2024, type PaymentsKit } from "./payments.test-kit.ts";
import { createPaystackClient, PaystackError, type PaystackClient } from "../paystack/client.ts";
import type { GatewayTransaction } from "./gateway.ts";

let kit: PaymentsKit;
// Verify answers pass through here, so a test can make "Paystack" report something else.
let tamper: ((transaction: GatewayTransaction) => GatewayTransaction) | null = null;
let unreachable = false;

beforeAll(async () => {
  const real = (): PaystackClient =>
    createPaystackClient({
      baseUrl: "http://paystack-sandbox.test",
      secretKey: kit.api.paystackSecretKey,
      fetch: kit.api.sandboxFetch,
      verifyRetries: 0,
    });
  kit = await createPaymentsKit({
    paystack: {
      initialize: (input) => real().initialize(input),
      chargeOffline: (input) => real().chargeOffline(input),
      listTransactions: (query) => real().listTransactions(query),
      refund: (input) => real().refund(input),
      listRefunds: (query) => real().listRefunds(query),
      async verify(reference) {
        if (unreachable) throw new PaystackError("Could not reach Paystack for verify: ECONNRESET");
        const transaction = await real().verify(reference);
        return transaction && tamper ? tamper(transaction) : transaction;
      },
    },
  });
});
afterAll(() => kit.api.close());

describe("GET /paystack/verify/:reference", () => {
  it("credits a paid payment with paid_at, channel and gateway response, and the fee shows as paid", async () => {
    const me = await kit.newStudent();
    const reference = await kit.start(me, "full");
    kit.api.clock.advance(90_000);
    await kit.payAtSandbox(reference);

    const response = await kit.verify(reference, me.token);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      status: "success",
      message: "Payment verified",
      data: {
        paystack_ref: reference,
        generated_date: "2025-01-15T09:00:00.000Z",
        uploaded_date: "2025-01-15T09:01:30.000Z",
        payment_level: 100,
        payment_session: "2024/2025",
        amount_paid: FULL_100_2024,
        payment_status: "success",
        installment: "full",
        gateway: "paystack",
        rrr: null,
      },
    });
    expect(await kit.paymentRow(reference)).toMatchObject({
      channel: "card",
      gatewayResponse: "Successful",
    });

    const info = await (
      await kit.api.request(`/student/payment-info/${me.student.id}`, { token: me.token })
    ).json();
    expect(info.data.school_fees_payment).toEqual({
      payment_complete: "full",
      session: "2024/2025",
      notices: [],
    });
    expect(info.data.school_fee_payment).toHaveLength(1);
    const student = await (await kit.api.request("/student/me", { token: me.token })).json();
    expect(student.data.payment_complete).toBe("full");
  });

  it("credits once when verified twice", async () => {
    const me = await kit.newStudent();
    const reference = await kit.start(me, "part");
    await kit.payAtSandbox(reference);
    const first = await kit.verify(reference, me.token);
    const second = await kit.verify(reference, me.token);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect((await second.json()).data.payment_status).toBe("success");
    expect(kit.creditLines(reference)).toHaveLength(1);
  });

  it("credits once when verify, the webhook and its replay race each other", async () => {
    const me = await kit.newStudent();
    const reference = await kit.start(me, "full");
    await kit.payAtSandbox(reference);
    const webhook = kit.api.webhooks.find((hook) => hook.body.includes(reference))!;
    const answers = await Promise.all([
      kit.verify(reference, me.token),
      kit.deliverWebhook(webhook.body, webhook.signature),
      kit.verify(reference, me.token),
      kit.deliverWebhook(webhook.body, webhook.signature),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
    expect(kit.creditLines(reference)).toHaveLength(1);
    expect((await kit.paymentRow(reference)).status).toBe("success");
  });

  it("credits only one of two payments for the same fee; the other is kept for a refund", async () => {
    const me = await kit.newStudent();
    const first = await kit.start(me, "part");
    const second = await kit.start(me, "part");
    await kit.payAtSandbox(first);
    await kit.payAtSandbox(second);
    const answers = await Promise.all([kit.verify(first, me.token), kit.verify(second, me.token)]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    const statuses = [(await kit.paymentRow(first)).status, (await kit.paymentRow(second)).status];
    expect(statuses.sort()).toEqual(["duplicate", "success"]);
    const refused = answers.find((answer) => answer.status === 409)!;
    expect((await refused.json()).message).toMatch(
      /could not be credited automatically \(Paid twice for the same fee/,
    );
  });

  it("credits only one of part and full paid for the same fee; the other is kept for a refund", async () => {
    const me = await kit.newStudent();
    const part = await kit.start(me, "part");
    const full = await kit.start(me, "full");
    await kit.payAtSandbox(part);
    await kit.payAtSandbox(full);
    const answers = await Promise.all([kit.verify(part, me.token), kit.verify(full, me.token)]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    const statuses = [(await kit.paymentRow(part)).status, (await kit.paymentRow(full)).status];
    expect(statuses.sort()).toEqual(["duplicate", "success"]);
  });

  it.each([
    ["full", "latefees"],
    ["latefees", "full"],
  ])(
    "credits a late fee started beside the full fee, whichever is credited first (%s first)",
    async (firstOption, secondOption) => {
      const me = await kit.newStudent();
      const first = await kit.start(me, firstOption, 100, "2023/2024");
      const second = await kit.start(me, secondOption, 100, "2023/2024");
      await kit.payAtSandbox(first);
      await kit.payAtSandbox(second);
      expect((await kit.verify(first, me.token)).status).toBe(200);
      expect((await kit.verify(second, me.token)).status).toBe(200);
      expect([(await kit.paymentRow(first)).status, (await kit.paymentRow(second)).status]).toEqual(
        ["success", "success"],
      );
    },
  );

  it("answers 404 for another student's reference, telling nothing about it", async () => {
    const owner = await kit.newStudent();
    const intruder = await kit.newStudent();
    const reference = await kit.start(owner, "full");
    await kit.payAtSandbox(reference);
    const response = await kit.verify(reference, intruder.token);
    expect(response.status).toBe(404);
    const unknown = await kit.verify("CCE-20250115-NOSUCHREF000", intruder.token);
    expect(await response.json()).toEqual(await unknown.json());
    expect((await kit.paymentRow(reference)).status).toBe("pending");
  });

  it("refuses a malformed reference with a 400 and an anonymous caller with a 401", async () => {
    const me = await kit.newStudent();
    const bad = await kit.verify("bad%20ref%3Cscript%3E", me.token);
    expect(bad.status).toBe(400);
    expect((await bad.json()).message).toBe("That payment reference is not valid.");
    expect((await kit.api.request("/paystack/verify/CCE-20250115-ABC")).status).toBe(401);
  });

  it("leaves an unpaid card checkout pending and says what that means for this attempt", async () => {
    const me = await kit.newStudent();
    const reference = await kit.start(me, "full");
    const response = await kit.verify(reference, me.token);
    expect(response.status).toBe(409);
    expect((await response.json()).message).toBe(
      `No money is recorded for this attempt (${reference}). If you left Paystack's page without paying, nothing was taken: pay from the Payment page when you are ready. If your bank shows the money gone, wait a minute and press Requery again; a payment that arrives is also credited by itself within a few minutes.`,
    );
    expect((await kit.paymentRow(reference)).status).toBe("pending");
  });

  it("calls a checkout left unpaid beside the paid fee not used, and still credits money that arrives for it", async () => {
    const me = await kit.newStudent();
    const left = await kit.start(me, "full");
    const paid = await kit.start(me, "full");
    await kit.payAtSandbox(paid);
    expect((await kit.verify(paid, me.token)).status).toBe(200);

    const response = await kit.verify(left, me.token);
    expect(response.status).toBe(409);
    expect((await response.json()).message).toBe(
      `Not used — no money taken. The fee this attempt (${left}) was for is paid with another payment, so there is nothing to do.`,
    );
    expect((await kit.paymentRow(left)).status).toBe("pending");

    // Money for it after all is not lost: kept as paid twice, for the bursary to refund.
    await kit.payAtSandbox(left);
    expect((await kit.verify(left, me.token)).status).toBe(409);
    expect((await kit.paymentRow(left)).status).toBe("duplicate");
  });

  it("records a declined card as failed", async () => {
    const me = await kit.newStudent();
    const body = await (
      await kit.post("/student/school-fee", me.token, {
        student_id: me.student.id,
        payment_option: "latefees",
        payment_level: 100,
        payment_session: "2023/2024",
      })
    ).json();
    const accessCode = body.authorization_url.split("/").pop();
    await kit.api.sandbox.request(`/checkout/${accessCode}/decline`, { method: "POST" });
    const response = await kit.verify(body.reference, me.token);
    expect(response.status).toBe(409);
    expect((await response.json()).message).toBe(
      "Paystack reports that this payment did not go through (Declined). Start a new payment from the Payment page.",
    );
    expect(await kit.paymentRow(body.reference)).toMatchObject({
      status: "failed",
      gatewayResponse: "Declined",
    });
  });

  it.each([
    ["a smaller amount", (t: GatewayTransaction) => ({ ...t, amountKobo: 100 }), 1],
    [
      "a larger amount",
      (t: GatewayTransaction) => ({ ...t, amountKobo: t.amountKobo + 1 }),
      120_000.01,
    ],
    ["another currency", (t: GatewayTransaction) => ({ ...t, currency: "USD" }), 120_000],
  ])("does not credit a payment Paystack reports with %s", async (_case, change, shown) => {
    const me = await kit.newStudent();
    const reference = await kit.start(me, "full");
    await kit.payAtSandbox(reference);
    tamper = change;
    try {
      const response = await kit.verify(reference, me.token);
      expect(response.status).toBe(409);
      expect((await response.json()).message).toBe(
        `This payment was received but could not be credited automatically (Paid amount or currency did not match the fee; the bursary will review it). Contact the bursary with reference ${reference}.`,
      );
    } finally {
      tamper = null;
    }
    expect((await kit.paymentRow(reference)).status).toBe("mismatch");
    // The history shows what Paystack received, in naira; another currency keeps the fee.
    const info = await (
      await kit.api.request(`/student/payment-info/${me.student.id}`, { token: me.token })
    ).json();
    expect(info.data.school_fee_payment).toEqual([
      expect.objectContaining({
        paystack_ref: reference,
        payment_status: "mismatch",
        amount_paid: shown,
      }),
    ]);
    expect(kit.creditLines(reference)).toHaveLength(0);
    expect(
      kit.api.logger.lines.some(
        (line) => line.includes("differs from the fee") && line.includes(reference),
      ),
    ).toBe(true);
  });

  it("answers a 502 asking to requery later when Paystack cannot be reached", async () => {
    const me = await kit.newStudent();
    const reference = await kit.start(me, "full");
    unreachable = true;
    try {
      const response = await kit.verify(reference, me.token);
      expect(response.status).toBe(502);
      expect((await response.json()).message).toBe(
        "We could not reach Paystack to check this payment. Please press Requery again in a few minutes.",
      );
    } finally {
      unreachable = false;
    }
    expect((await kit.paymentRow(reference)).status).toBe("pending");
  });
});
