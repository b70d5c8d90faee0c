import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { feeStatusFlags, refunds } from "../../db/schema.ts";
import { PaystackError } from "../../paystack/client.ts";
import { createBursaryKit, type BursaryKit } from "./bursary.test-kit.ts";

// Paystack's refund webhooks against the refunds we asked for (decisions 102, 141): an event
// settles the refund it names, never another, and a dashboard refund takes back only what it
// refunded.

let kit: BursaryKit;
beforeAll(async () => {
  // Above the ₦120,000 fee: refunds go to Paystack on one bursar's word (decision 151).
  kit = await createBursaryKit({ refundSecondApprovalKobo: 20_000_000 });
});
afterAll(() => kit.api.close());

const paidTwice = () => kit.paidTwice();

/** A refund made at Paystack's dashboard, not through the portal: answers Paystack's refund id. */
async function dashboardRefund(reference: string, amount?: number): Promise<number> {
  const headers = {
    authorization: `Bearer ${kit.api.paystackSecretKey}`,
    "content-type": "application/json",
  };
  const answer = await kit.api.sandbox.request("/refund", {
    method: "POST",
    headers,
    body: JSON.stringify({ transaction: reference, amount }),
  });
  return (await answer.json()).data.id;
}

/** Paystack settles refund `id` and its webhook reaches us; answers what the API did. */
async function settleAtPaystack(id: number, outcome: "process" | "fail" = "process") {
  await kit.sandboxHook(`/__sandbox/refunds/${id}/${outcome}`);
  const hook = kit.api.webhooks
    .filter((sent) => sent.body.includes(`"id":${id},`) && sent.body.includes('"refund.'))
    .at(-1)!;
  return (await (await kit.deliverWebhook(hook.body)).json()).message as string;
}

const refundsOf = async (reference: string) =>
  kit.api.db
    .select()
    .from(refunds)
    .where(eq(refunds.paymentId, (await kit.paymentRow(reference)).id));
const flagOf = async (reference: string) =>
  (
    await kit.api.db
      .select()
      .from(feeStatusFlags)
      .where(eq(feeStatusFlags.paymentId, (await kit.paymentRow(reference)).id))
  )[0]?.reason;
const eventKinds = async (reference: string) =>
  (await (await kit.asBursar(`/staff/payments/${reference}`)).json()).data.events.map(
    (event: { kind: string }) => event.kind,
  ) as string[];
const feeStatus = async (who: { student: { id: number }; token: string }) =>
  (
    await (
      await kit.api.request(`/student/payment-info/${who.student.id}`, { token: who.token })
    ).json()
  ).data.school_fees_payment.payment_complete;

describe("a refund webhook settles the refund it names", () => {
  it("a refund we did not ask for leaves ours pending, is recorded and flagged, and ours settles by its own id", async () => {
    const { second } = await paidTwice();
    expect(
      (
        await kit.asBursar("/staff/refunds", {
          method: "POST",
          json: { reference: second, reason: "Paid twice", amount_kobo: 6_000_000 },
        })
      ).status,
    ).toBe(201);
    const [ours] = await refundsOf(second);

    const other = await dashboardRefund(second, 1_000_000);
    expect(await settleAtPaystack(other)).toBe("unmatched refund flagged");
    expect(await refundsOf(second)).toEqual([
      expect.objectContaining({
        id: ours!.id,
        status: "pending",
        paystackRefundId: ours!.paystackRefundId,
      }),
    ]);
    expect((await kit.paymentRow(second)).status).toBe("refunding");
    expect(await flagOf(second)).toContain(`refund ${other} of ₦10,000.00 as processed`);
    expect((await eventKinds(second)).filter((kind) => kind === "refund-unmatched")).toHaveLength(
      1,
    );
    // Its replay is recorded as received and changes nothing more.
    const replay = kit.api.webhooks.filter((sent) => sent.body.includes(`"id":${other},`)).at(-1)!;
    expect((await (await kit.deliverWebhook(replay.body)).json()).message).toBe("already recorded");
    expect((await eventKinds(second)).filter((kind) => kind === "refund-unmatched")).toHaveLength(
      1,
    );

    expect(await settleAtPaystack(ours!.paystackRefundId!)).toBe("refund processed");
    expect(await refundsOf(second)).toEqual([expect.objectContaining({ status: "processed" })]);
    expect((await kit.paymentRow(second)).status).toBe("refunded");
  });

  it("a refund whose answer was lost takes Paystack's id from the event when the amount agrees, and not otherwise", async () => {
    const { second } = await paidTwice();
    // What Paystack's lost answer leaves behind (refunds.api.test.ts makes it through the route).
    const client = kit.api.deps.gateways.paystack;
    const original = client.refund;
    let paystackId = 0;
    client.refund = async (input) => {
      paystackId = (await original(input)).id;
      throw new PaystackError("Paystack did not answer refund within 10000 ms");
    };
    try {
      expect(
        (
          await kit.asBursar("/staff/refunds", {
            method: "POST",
            json: { reference: second, reason: "Paid twice", amount_kobo: 5_000_000 },
          })
        ).status,
      ).toBe(504);
    } finally {
      client.refund = original;
    }
    // Another amount is another refund: ours keeps waiting.
    const other = await dashboardRefund(second, 2_000_000);
    expect(await settleAtPaystack(other)).toBe("unmatched refund flagged");
    expect(await refundsOf(second)).toEqual([
      expect.objectContaining({ status: "pending", paystackRefundId: null }),
    ]);

    expect(await settleAtPaystack(paystackId, "fail")).toBe("refund failed");
    expect(await refundsOf(second)).toEqual([
      expect.objectContaining({ status: "failed", paystackRefundId: paystackId }),
    ]);
    expect((await kit.paymentRow(second)).status).toBe("duplicate");
  });

  it("an event without an id we know, for a payment with no refund of ours, is flagged and changes nothing", async () => {
    const reference = await kit.start(await kit.newStudent()); // started, never paid
    const body = JSON.stringify({
      event: "refund.failed",
      data: { id: 999_999, transaction_reference: reference, amount: 100, currency: "NGN" },
    });
    expect((await (await kit.deliverWebhook(body)).json()).message).toBe(
      "unmatched refund flagged",
    );
    expect((await kit.paymentRow(reference)).status).toBe("pending");
    expect(await flagOf(reference)).toContain(
      "refund 999999 of ₦1.00 as failed, that was never asked here",
    );
  });
});

describe("a refund made at Paystack's dashboard of a credited payment", () => {
  it("a partial refund keeps the credit and is flagged; the credit goes only when the refunds cover what was paid", async () => {
    const { who, reference } = await kit.paidPayment();
    expect(await feeStatus(who)).toBe("full");

    expect(await settleAtPaystack(await dashboardRefund(reference, 50_000))).toBe(
      "partial refund flagged",
    );
    expect((await kit.paymentRow(reference)).status).toBe("success");
    expect(await feeStatus(who)).toBe("full");
    expect(await flagOf(reference)).toContain(
      "Paystack refunded ₦500.00 of this credited payment outside the portal (₦500.00 of ₦120,000.00 paid, in all). It still counts as credit",
    );
    const listed = (await (await kit.asBursar(`/staff/payments?q=${reference}`)).json()).data;
    expect(listed[0]).toMatchObject({ flagged: true, status: "success" });

    expect(await settleAtPaystack(await dashboardRefund(reference))).toBe("credit taken back");
    expect((await kit.paymentRow(reference)).status).toBe("refunded");
    expect(await feeStatus(who)).not.toBe("full");
    const flag = await flagOf(reference);
    expect(flag).toContain("₦500.00 of ₦120,000.00");
    expect(flag).toContain(
      "no longer counts: refunded at Paystack (₦120,000.00 of ₦120,000.00 paid)",
    );
  });

  it("a partial refund of a duplicate takes it out of the queue and says how much is left", async () => {
    const { second } = await paidTwice();
    expect(await settleAtPaystack(await dashboardRefund(second, 2_000_000))).toBe(
      "refunded outside the portal",
    );
    expect((await kit.paymentRow(second)).status).toBe("refunded");
    expect(await flagOf(second)).toContain(
      "Paystack refunded ₦20,000.00 of ₦120,000.00 outside the portal",
    );
  });
});
