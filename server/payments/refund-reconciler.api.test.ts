import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { refunds } from "../db/schema.ts";
import { PaystackError } from "../paystack/client.ts";
import { createBursaryKit, type BursaryKit } from "./bursary/bursary.test-kit.ts";
import { staffSignIn } from "../staff/staff.test-kit.ts";
import { reconcileUnconfirmedRefunds } from "./refund-reconciler.ts";

// Refunds whose answer from Paystack was lost are found in Paystack's refund list (decision 141).

let kit: BursaryKit;
const MINUTE = 60_000;
beforeAll(async () => {
  kit = await createBursaryKit();
});
afterAll(() => kit.api.close());

const reconcile = () => reconcileUnconfirmedRefunds(kit.api.deps);

// The tests move the clock by hours, past a staff session's life: the bursar signs in afresh.
let token = "";
const asBursar = (path: string, init: { method?: string; json?: unknown } = {}) =>
  kit.api.request(path, { ...init, token });
async function later(ms: number) {
  kit.api.clock.advance(ms);
  token = await staffSignIn(kit.api, kit.bursar);
}

// Each test starts with nothing unconfirmed left over from the one before.
async function settleEverything() {
  await later(2 * 60 * MINUTE);
  await reconcile();
}

async function duplicate() {
  return (await kit.paidTwice()).second;
}

/** Asks a refund whose answer is lost; `reaches` says whether Paystack got it. Answers Paystack's id, if any. */
async function refundWithoutAnswer(reference: string, reaches: boolean) {
  const client = kit.api.deps.gateways.paystack;
  const original = client.refund;
  let paystackId: number | undefined;
  client.refund = async (input) => {
    if (reaches) paystackId = (await original(input)).id;
    throw new PaystackError("Paystack did not answer refund within 10000 ms");
  };
  try {
    const response = await asBursar("/staff/refunds", {
      method: "POST",
      json: { reference, reason: "Paid twice", amount_kobo: 4_000_000 },
    });
    expect(response.status).toBe(504);
  } finally {
    client.refund = original;
  }
  return paystackId;
}

const refundOf = async (reference: string) =>
  (
    await kit.api.db
      .select()
      .from(refunds)
      .where(eq(refunds.paymentId, (await kit.paymentRow(reference)).id))
  )[0]!;

describe("reconcileUnconfirmedRefunds", () => {
  it("a refund Paystack processed while its answer and webhook were lost is settled from Paystack's list", async () => {
    await settleEverything();
    const reference = await duplicate();
    const paystackId = (await refundWithoutAnswer(reference, true))!;
    await kit.sandboxHook(`/__sandbox/refunds/${paystackId}/process`); // its webhook is never delivered

    expect(await reconcile()).toBe(0); // too fresh: the webhook usually comes first
    await later(6 * MINUTE);
    expect(await reconcile()).toBe(1);
    expect(await refundOf(reference)).toMatchObject({
      status: "processed",
      paystackRefundId: paystackId,
    });
    expect((await kit.paymentRow(reference)).status).toBe("refunded");
    // The webhook arriving after all changes nothing.
    expect(
      (await (await kit.deliverWebhook(kit.webhookFor(reference, "refund.processed"))).json())
        .message,
    ).toBe("already settled");
  });

  it("a refund still under way at Paystack takes its id, and its webhook settles it by that id", async () => {
    await settleEverything();
    const reference = await duplicate();
    const paystackId = (await refundWithoutAnswer(reference, true))!;
    await later(6 * MINUTE);
    expect(await reconcile()).toBe(1);
    expect(await refundOf(reference)).toMatchObject({
      status: "pending",
      paystackRefundId: paystackId,
    });
    expect((await kit.paymentRow(reference)).status).toBe("refunding");

    await kit.sandboxHook(`/__sandbox/refunds/${paystackId}/fail`);
    expect(
      (await (await kit.deliverWebhook(kit.webhookFor(reference, "refund.failed"))).json()).message,
    ).toBe("refund failed");
    expect((await kit.paymentRow(reference)).status).toBe("duplicate");
  });

  it("a refund that never reached Paystack is settled failed an hour later, and the payment can be refunded again", async () => {
    await settleEverything();
    const reference = await duplicate();
    await refundWithoutAnswer(reference, false);
    await later(30 * MINUTE);
    expect(await reconcile()).toBe(0);
    expect((await kit.paymentRow(reference)).status).toBe("refunding");

    await later(31 * MINUTE);
    expect(await reconcile()).toBe(1);
    expect(await refundOf(reference)).toMatchObject({ status: "failed", paystackRefundId: null });
    expect((await kit.paymentRow(reference)).status).toBe("duplicate");
    expect(
      (
        await asBursar("/staff/refunds", {
          method: "POST",
          json: { reference, reason: "Paid twice" },
        })
      ).status,
    ).toBe(201);
  });

  it("when Paystack cannot list its refunds, nothing is settled", async () => {
    await settleEverything();
    const reference = await duplicate();
    await refundWithoutAnswer(reference, false);
    await later(2 * 60 * MINUTE);
    const failing = {
      ...kit.api.deps.gateways.paystack,
      listRefunds: async () => {
        throw new PaystackError("Could not reach Paystack for list refunds: ECONNRESET");
      },
    };
    expect(
      await reconcileUnconfirmedRefunds({
        ...kit.api.deps,
        gateways: { ...kit.api.deps.gateways, paystack: failing },
      }),
    ).toBe(0);
    expect(await refundOf(reference)).toMatchObject({ status: "pending" });
    expect((await kit.paymentRow(reference)).status).toBe("refunding");
  });
});
