import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { choice, createPaymentsKit, FULL_100_2024, type PaymentsKit } from "./payments.test-kit.ts";
import { PAYMENT_STARTS_PER_STUDENT } from "./payment-limits.ts";

let kit: PaymentsKit;
beforeAll(async () => {
  kit = await createPaymentsKit();
});
afterAll(() => kit.api.close());

type Who = Awaited<ReturnType<PaymentsKit["newStudent"]>>;

const startOffline = (who: Who, json: object) =>
  kit.post("/student/school-fee/offline", who.token, {
    student_id: who.student.id,
    ...choice("full"),
    ...json,
  });
const byTransfer = (who: Who, json: object = {}) =>
  startOffline(who, { channel: "bank_transfer", ...json });

/** Plays the student's bank at the sandbox page, then delivers the signed webhook it sent. */
async function arrives(reference: string, naira?: string) {
  const sent = kit.api.webhooks.length;
  const form = new FormData();
  if (naira) form.set("amount", naira);
  const page = await kit.api.sandbox.request(`/simulate/${reference}`, {
    method: "POST",
    body: form,
  });
  expect(await page.text()).toContain("webhook was delivered");
  const webhook = kit.api.webhooks[sent]!;
  return kit.deliverWebhook(webhook.body, webhook.signature);
}

const refusal = async (response: Response) => ({
  status: response.status,
  message: (await response.json()).error.message,
});

describe("POST /student/school-fee/offline", () => {
  it("charges a bank transfer at the scheduled amount, keeps the account and records the channel", async () => {
    const me = await kit.newStudent();
    const response = await byTransfer(me, { amount: 100, amount_kobo: 100 });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toEqual({
      status: "pending",
      message: "Charge attempted",
      reference: expect.stringMatching(/^CCE-\d{8}-[0-9A-Z]{12}$/),
      instructions: {
        channel: "bank_transfer",
        bank_name: "Test Bank",
        account_number: expect.stringMatching(/^\d{10}$/),
        account_name: "PAYSTACK CHECKOUT",
        // Two hours from the test clock's now.
        expires_at: new Date(kit.api.clock.now().getTime() + 2 * 3_600_000).toISOString(),
      },
    });
    expect(await kit.paymentRow(body.reference)).toMatchObject({
      amountKobo: FULL_100_2024 * 100,
      status: "pending",
      channel: "bank_transfer",
      payInstructions: body.instructions,
    });

    const shown = await kit.api.request(`/student/school-fee/${body.reference}`, {
      token: me.token,
    });
    expect((await shown.json()).data).toMatchObject({
      payment: {
        paystack_ref: body.reference,
        payment_status: "pending",
        amount_paid: FULL_100_2024,
      },
      instructions: body.instructions,
    });
  });

  it("gives the USSD code of the chosen bank; the webhook credits it once, as USSD", async () => {
    const me = await kit.newStudent();
    const body = await (await startOffline(me, { channel: "ussd", ussd_bank: "919" })).json();
    expect(body.instructions).toEqual({
      channel: "ussd",
      ussd_code: expect.stringMatching(/^\*919\*33\*4\*\d{5}#$/),
    });

    expect((await arrives(body.reference)).status).toBe(200);
    expect(await kit.paymentRow(body.reference)).toMatchObject({
      status: "success",
      channel: "ussd",
    });
    expect(kit.creditLines(body.reference)).toHaveLength(1);
    // Checking again after the webhook answers from our records.
    expect((await kit.verify(body.reference, me.token)).status).toBe(200);
    expect(kit.creditLines(body.reference)).toHaveLength(1);
  });

  it("checked before the money arrives, says so and changes nothing", async () => {
    const me = await kit.newStudent();
    const { reference } = await (await byTransfer(me)).json();
    const checked = await kit.verify(reference, me.token);
    expect(checked.status).toBe(409);
    expect((await checked.json()).message).toMatch(/^Paystack has not received this payment yet/);
    expect((await kit.paymentRow(reference)).status).toBe("pending");
  });

  it("does not credit a transfer of another amount: the payment is kept as a mismatch and logged", async () => {
    const me = await kit.newStudent();
    const { reference } = await (await byTransfer(me)).json();
    await arrives(reference, "100,000");
    expect((await kit.paymentRow(reference)).status).toBe("mismatch");
    expect(kit.creditLines(reference)).toHaveLength(0);
    expect(
      kit.api.logger.lines.some(
        (line) => line.includes("differs from the fee") && line.includes(reference),
      ),
    ).toBe(true);
  });

  it("answers 'Payment already made' to a replay after the fee is paid, and charges nothing", async () => {
    const me = await kit.newStudent();
    const { reference } = await (await byTransfer(me)).json();
    await arrives(reference);
    const replay = await byTransfer(me);
    expect(await replay.json()).toEqual({ status: "success", message: "Payment already made" });
    const info = await (
      await kit.api.request(`/student/payment-info/${me.student.id}`, { token: me.token })
    ).json();
    expect(info.data.school_fee_payment).toHaveLength(1);
  });

  it.each([
    [
      "another student's id",
      (me: Who) => byTransfer(me, { student_id: me.student.id + 1 }),
      403,
      "You can only see and change your own record.",
    ],
    [
      "a level above the student's own",
      (me: Who) => byTransfer(me, choice("full", 200)),
      400,
      "You are in 100 level; you cannot pay 200 level fees.",
    ],
    [
      "USSD without a bank",
      (me: Who) => startOffline(me, { channel: "ussd" }),
      400,
      "Choose the bank whose USSD code you will dial.",
    ],
    [
      "a bank Paystack has no USSD code for",
      (me: Who) => startOffline(me, { channel: "ussd", ussd_bank: "000" }),
      400,
      "Choose the bank whose USSD code you will dial.",
    ],
    [
      "a channel that needs a card",
      (me: Who) => startOffline(me, { channel: "card" }),
      400,
      "Choose bank transfer, USSD or Remita.",
    ],
  ])("refuses %s and creates no payment", async (_case, send, status, message) => {
    const me = await kit.newStudent({ level: 100 });
    expect(await refusal(await send(me))).toEqual({ status, message });
    const info = await (
      await kit.api.request(`/student/payment-info/${me.student.id}`, { token: me.token })
    ).json();
    expect(info.data.school_fee_payment).toEqual([]);
  });

  it("counts against the same per-student limit as card payments (decision 054)", async () => {
    const me = await kit.newStudent();
    for (let attempt = 0; attempt < PAYMENT_STARTS_PER_STUDENT.limit - 1; attempt++) {
      expect((await byTransfer(me)).status).toBe(200);
    }
    expect(
      (
        await kit.post("/student/school-fee", me.token, {
          student_id: me.student.id,
          ...choice("full"),
        })
      ).status,
    ).toBe(200);
    expect((await startOffline(me, { channel: "ussd", ussd_bank: "737" })).status).toBe(429);
  });
});

describe("GET /student/school-fee/{reference}", () => {
  it("answers another student's payment like an unknown one", async () => {
    const owner = await kit.newStudent();
    const other = await kit.newStudent();
    const { reference } = await (await byTransfer(owner)).json();
    for (const path of [
      `/student/school-fee/${reference}`,
      "/student/school-fee/CCE-20250115-UNKNOWN00000",
    ]) {
      const response = await kit.api.request(path, { token: other.token });
      expect(await refusal(response)).toEqual({
        status: 404,
        message:
          "We have no payment with that reference. Check it, or start a new payment from the Payment page.",
      });
    }
  });
});
