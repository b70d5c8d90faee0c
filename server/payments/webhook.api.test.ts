import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPaymentsKit, type PaymentsKit } from "./payments.test-kit.ts";
import { signPaystackPayload } from "../paystack/signature.ts";

let kit: PaymentsKit;

beforeAll(async () => {
  kit = await createPaymentsKit();
});
afterAll(() => kit.api.close());

/** A pending payment paid at the sandbox, with the webhook the sandbox signed for it. */
async function paidWithWebhook() {
  const me = await kit.newStudent();
  const reference = await kit.start(me, "full");
  await kit.payAtSandbox(reference);
  const webhook = kit.api.webhooks.find((hook) => hook.body.includes(reference))!;
  return { me, reference, webhook };
}

/** The lines logged while answering `response`: they carry the id it went out with. */
const linesOf = (response: Response) =>
  kit.api.logger.lines.filter((line) =>
    line.includes(`"requestId":"${response.headers.get("x-request-id")}"`),
  );

const chargeSuccess = (data: Record<string, unknown>) =>
  JSON.stringify({
    event: "charge.success",
    data: {
      status: "success",
      currency: "NGN",
      channel: "card",
      paid_at: "2025-01-15T09:05:00.000Z",
      ...data,
    },
  });

describe("POST /paystack/webhook", () => {
  it("credits the payment named by a correctly signed charge.success", async () => {
    const { me, reference, webhook } = await paidWithWebhook();
    const response = await kit.deliverWebhook(webhook.body, webhook.signature);
    expect(response.status).toBe(200);
    expect((await kit.paymentRow(reference)).status).toBe("success");
    const info = await (
      await kit.api.request(`/student/payment-info/${me.student.id}`, { token: me.token })
    ).json();
    expect(info.data.school_fees_payment.payment_complete).toBe("full");
  });

  it("credits once when the same webhook is replayed", async () => {
    const { reference, webhook } = await paidWithWebhook();
    for (let i = 0; i < 3; i++)
      expect((await kit.deliverWebhook(webhook.body, webhook.signature)).status).toBe(200);
    expect(kit.creditLines(reference)).toHaveLength(1);
  });

  it.each([
    ["no signature", (body: string) => ({ body, signature: null })],
    [
      "a signature with another key",
      (body: string) => ({ body, signature: signPaystackPayload(body, "sk_test_forger") }),
    ],
    ["a malformed signature", (body: string) => ({ body, signature: "abc" })],
    // Re-serialising changes the bytes the signature covers, so the original signature no longer fits.
    [
      "the body re-serialised with the original signature",
      (body: string, signature: string) => ({
        body: JSON.stringify(JSON.parse(body), null, 2),
        signature,
      }),
    ],
    [
      "an altered amount under the original signature",
      (body: string, signature: string) => ({
        body: body.replace(/"amount":\d+/, '"amount":100'),
        signature,
      }),
    ],
  ])("refuses a forged webhook with %s: 401, logged, nothing credited", async (_case, forge) => {
    const { reference, webhook } = await paidWithWebhook();
    const forged = forge(webhook.body, webhook.signature!);
    const response = await kit.deliverWebhook(forged.body, forged.signature);
    expect(response.status).toBe(401);
    expect((await kit.paymentRow(reference)).status).toBe("pending");
    expect(linesOf(response)).toContainEqual(
      expect.stringContaining("paystack webhook refused: bad signature"),
    );
  });

  it("logs and ignores an unknown reference", async () => {
    const response = await kit.deliverWebhook(
      chargeSuccess({ reference: "CCE-20250115-UNKNOWN00000", amount: 100 }),
    );
    expect(response.status).toBe(200);
    expect(linesOf(response)).toContainEqual(
      expect.stringContaining("paystack webhook for an unknown reference"),
    );
  });

  it("does not credit a signed event whose amount or currency differs from what we asked", async () => {
    const { reference } = await paidWithWebhook();
    const row = await kit.paymentRow(reference);
    for (const data of [
      { amount: row.amountKobo - 100 },
      { amount: row.amountKobo, currency: "USD" },
    ]) {
      const response = await kit.deliverWebhook(chargeSuccess({ reference, ...data }));
      expect(response.status).toBe(200);
      expect((await kit.paymentRow(reference)).status).toBe("mismatch");
    }
    expect(kit.creditLines(reference)).toHaveLength(0);
  });

  it.each([
    ["another event", JSON.stringify({ event: "transfer.success", data: { reference: "X" } })],
    [
      "a charge.success without a reference",
      JSON.stringify({ event: "charge.success", data: { amount: 1 } }),
    ],
    [
      "a charge.success with a bad paid_at",
      chargeSuccess({ reference: "X", amount: 1, paid_at: "yesterday" }),
    ],
    ["a body that is not JSON", "event=charge.success"],
  ])("answers 200 and changes nothing for %s", async (_case, body) => {
    const response = await kit.deliverWebhook(body);
    expect(response.status).toBe(200);
    expect(linesOf(response)).toContainEqual(expect.stringContaining("paystack webhook ignored"));
  });

  it("does not mark a credited payment failed when a later event says otherwise", async () => {
    const { reference, webhook } = await paidWithWebhook();
    await kit.deliverWebhook(webhook.body, webhook.signature);
    const row = await kit.paymentRow(reference);
    await kit.deliverWebhook(
      chargeSuccess({ reference, amount: row.amountKobo, status: "reversed" }),
    );
    expect((await kit.paymentRow(reference)).status).toBe("success");
  });
});
