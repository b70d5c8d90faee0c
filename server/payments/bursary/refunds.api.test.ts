import { and, eq, isNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, feeStatusFlags, refunds } from "../../db/schema.ts";
import { isUniqueViolation } from "../../db/unique-violation.ts";
import { createPaystackClient, PaystackError } from "../../paystack/client.ts";
import { createBursaryKit, type BursaryKit } from "./bursary.test-kit.ts";

let kit: BursaryKit;
beforeAll(async () => {
  // Above the ₦120,000 fee: these refunds go to Paystack at once (second approvals: refund-approvals.api.test.ts).
  kit = await createBursaryKit({ refundSecondApprovalKobo: 20_000_000 });
});
afterAll(() => kit.api.close());

/** A student who paid the same fee twice: the first credited, the second a duplicate. */
async function paidTwice() {
  const paid = await kit.paidTwice();
  expect((await kit.paymentRow(paid.second)).status).toBe("duplicate");
  return paid;
}

const refund = (reference: string, extra: Record<string, unknown> = {}) =>
  kit.asBursar("/staff/refunds", {
    method: "POST",
    json: { reference, reason: "Paid the same fee twice", ...extra },
  });

async function paymentComplete(who: Awaited<ReturnType<typeof kit.newStudent>>) {
  const info = await (
    await kit.api.request(`/student/payment-info/${who.student.id}`, { token: who.token })
  ).json();
  return info.data.school_fee_payment.map(
    (row: { paystack_ref: string; payment_status: string }) => [
      row.paystack_ref,
      row.payment_status,
    ],
  );
}

/**
 * Paystack queues the refund but its answer never arrives: the client's own time-out error after
 * the request went through. Answers the id Paystack gave the refund we never heard of.
 */
async function refundWithLostAnswer(reference: string, extra: Record<string, unknown> = {}) {
  const client = kit.api.deps.gateways.paystack;
  const original = client.refund;
  let queued: { id: number } | undefined;
  client.refund = async (input) => {
    queued = await original(input);
    throw new PaystackError("Paystack did not answer refund within 10000 ms");
  };
  try {
    return { response: await refund(reference, extra), paystackId: () => queued!.id };
  } finally {
    client.refund = original;
  }
}

const refundRows = async (reference: string) =>
  kit.api.db
    .select()
    .from(refunds)
    .where(eq(refunds.paymentId, (await kit.paymentRow(reference)).id))
    .orderBy(refunds.id);

describe("refunding a duplicate payment", () => {
  it("the duplicate waits in the queue, is refunded once through Paystack, and the student's credited payment stays", async () => {
    const { who, first, second } = await paidTwice();
    const queue = (await (await kit.asBursar("/staff/refunds")).json()).data;
    expect(queue.waiting.map((row: { reference: string }) => row.reference)).toContain(second);

    const started = await refund(second);
    expect(started.status).toBe(201);
    expect((await started.json()).message).toContain("₦120,000.00");
    expect((await kit.paymentRow(second)).status).toBe("refunding");
    const again = await refund(second);
    expect(again.status).toBe(409);
    expect((await again.json()).error.message).toContain("refunded once");

    const [row] = await kit.api.db
      .select()
      .from(refunds)
      .where(eq(refunds.paymentId, (await kit.paymentRow(second)).id));
    await kit.sandboxHook(`/__sandbox/refunds/${row!.paystackRefundId}/process`);
    const processed = kit.webhookFor(second, "refund.processed");
    expect((await kit.deliverWebhook(processed)).status).toBe(200);
    await kit.deliverWebhook(processed); // a replay changes nothing
    expect((await kit.paymentRow(second)).status).toBe("refunded");
    expect((await kit.paymentRow(first)).status).toBe("success");
    expect(await paymentComplete(who)).toEqual(
      expect.arrayContaining([
        [first, "success"],
        [second, "refunded"],
      ]),
    );

    const detail = (await (await kit.asBursar(`/staff/payments/${second}`)).json()).data;
    expect(detail.events.map((event: { kind: string }) => event.kind)).toEqual([
      "initialised",
      "webhook-received",
      "duplicate",
      "refund-requested",
      "webhook-received",
      "refund-processed",
      "webhook-received",
    ]);
    expect(detail.refunds).toEqual([
      expect.objectContaining({ status: "processed", amount_kobo: 12_000_000 }),
    ]);
    const [audit] = await kit.api.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "payment.refund"), eq(auditLog.entityId, second)));
    expect(audit).toMatchObject({
      staffId: kit.bursar.id,
      before: { status: "duplicate" },
      after: { status: "refunding" },
    });

    // A replayed charge.success never credits a refunded payment.
    await kit.deliverWebhook(kit.webhookFor(second));
    expect((await kit.paymentRow(second)).status).toBe("refunded");
    expect((await refund(second)).status).toBe(409);
  });

  it("a refund Paystack fails returns the payment to the queue, to be tried again", async () => {
    const { second } = await paidTwice();
    expect((await refund(second)).status).toBe(201);
    const [row] = await kit.api.db
      .select()
      .from(refunds)
      .where(eq(refunds.paymentId, (await kit.paymentRow(second)).id));
    await kit.sandboxHook(`/__sandbox/refunds/${row!.paystackRefundId}/fail`);
    await kit.deliverWebhook(kit.webhookFor(second, "refund.failed"));
    expect((await kit.paymentRow(second)).status).toBe("duplicate");
    expect((await refund(second, { amount_kobo: 5_000_000 })).status).toBe(201);
  });

  it("refuses more than was paid, a non-refundable payment, bad input; Paystack's refusal is a 502 and nothing stays started", async () => {
    const { first, second } = await paidTwice();
    const over = await refund(second, { amount_kobo: 12_000_001 });
    expect(over.status).toBe(400);
    expect((await over.json()).error.message).toBe(
      "A refund cannot be more than what was paid (₦120,000.00).",
    );
    const unpaid = await kit.start(await kit.newStudent());
    const nothingTaken = await refund(unpaid);
    expect(nothingTaken.status).toBe(409);
    expect((await nothingTaken.json()).error.message).toContain(
      "Paystack holds no money of this payment to refund: it is pending.",
    );
    expect((await kit.paymentRow(first)).status).toBe("success");
    expect((await refund("NOPE-1")).status).toBe(404);
    for (const json of [
      { reference: second },
      { reference: second, reason: "x" },
      { reference: second, reason: "ok reason", amount_kobo: 0 },
      { reference: second, reason: "ok reason", amount_kobo: 1.5 },
      // Paystack pays back the way the money came: bank details are not for its refunds.
      {
        reference: second,
        reason: "ok reason",
        account_name: "Tolu Adebayo",
        account_number: "0123456789",
        bank: "Access Bank",
      },
      { reference: second, reason: "ok reason", account_number: "12345" },
    ]) {
      expect((await kit.asBursar("/staff/refunds", { method: "POST", json })).status).toBe(400);
    }
    expect((await kit.paymentRow(second)).status).toBe("duplicate");

    // Paystack itself refuses (here: refunded already at its dashboard, so nothing is left).
    await kit.api.sandbox.request("/refund", {
      method: "POST",
      headers: {
        authorization: `Bearer ${kit.api.paystackSecretKey}`,
        "content-type": "application/json",
      },
      body: JSON.stringify({ transaction: second }),
    });
    const refused = await refund(second);
    expect(refused.status).toBe(502);
    expect((await refused.json()).error.message).toContain("Nothing was refunded");
    expect((await kit.paymentRow(second)).status).toBe("duplicate");
  });

  it("a credited payment refunded at Paystack's dashboard loses its credit: the student's status is flagged, with an audit row", async () => {
    const { who, reference } = await kit.paidPayment();
    const headers = {
      authorization: `Bearer ${kit.api.paystackSecretKey}`,
      "content-type": "application/json",
    };
    const answer = await (
      await kit.api.sandbox.request("/refund", {
        method: "POST",
        headers,
        body: JSON.stringify({ transaction: reference }),
      })
    ).json();
    await kit.sandboxHook(`/__sandbox/refunds/${answer.data.id}/process`);
    await kit.deliverWebhook(kit.webhookFor(reference, "refund.processed"));
    expect((await kit.paymentRow(reference)).status).toBe("refunded");
    expect(await paymentComplete(who)).toEqual([[reference, "refunded"]]);
    const [flag] = await kit.api.db
      .select()
      .from(feeStatusFlags)
      .where(eq(feeStatusFlags.studentId, who.student.id));
    expect(flag?.reason).toContain("refunded at Paystack");
    const [audit] = await kit.api.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, reference), isNull(auditLog.staffId)));
    expect(audit).toMatchObject({ action: "payment.uncredit", after: { status: "refunded" } });
    const listed = (await (await kit.asBursar(`/staff/payments?q=${reference}`)).json()).data;
    expect(listed[0]).toMatchObject({ flagged: true, status: "refunded" });
  });

  it("a refund whose answer is lost stays pending and holds the payment, so it is not refunded twice", async () => {
    const { second } = await paidTwice();
    const { response, paystackId } = await refundWithLostAnswer(second, { amount_kobo: 6_000_000 });
    expect(response.status).toBe(504);
    const message = (await response.json()).error.message;
    expect(message).toContain("Paystack did not answer the refund of ₦60,000.00");
    expect(message).toContain("Do not refund it again");
    expect(message).not.toContain("Nothing was refunded");
    expect((await kit.paymentRow(second)).status).toBe("refunding");
    expect(await refundRows(second)).toEqual([
      expect.objectContaining({ status: "pending", paystackRefundId: null, amountKobo: 6_000_000 }),
    ]);

    const again = await refund(second, { amount_kobo: 6_000_000 });
    expect(again.status).toBe(409);
    expect((await again.json()).error.message).toContain("refunded once");
    // Underneath the status check, the index allows one live refund per payment.
    const [{ id: _, ...live }] = (await refundRows(second)) as [typeof refunds.$inferSelect];
    const insert = kit.api.db.insert(refunds).values({ ...live, requestedAt: kit.api.clock.now() });
    expect(
      await insert.then(
        () => null,
        (error: unknown) => error,
      ),
    ).toSatisfy(isUniqueViolation);

    // Paystack's webhook names the refund we never had an id for: same payment, same amount.
    await kit.sandboxHook(`/__sandbox/refunds/${paystackId()}/process`);
    expect((await kit.deliverWebhook(kit.webhookFor(second, "refund.processed"))).status).toBe(200);
    expect(await refundRows(second)).toEqual([
      expect.objectContaining({ status: "processed", paystackRefundId: paystackId() }),
    ]);
    expect((await kit.paymentRow(second)).status).toBe("refunded");
    const detail = (await (await kit.asBursar(`/staff/payments/${second}`)).json()).data;
    expect(detail.events.map((event: { kind: string }) => event.kind)).toContain(
      "refund-unconfirmed",
    );
  });

  it.each([
    {
      case: "refuses it (status: false)",
      answer: () =>
        Response.json(
          { status: false, message: "Transaction has been fully reversed" },
          { status: 400 },
        ),
      shown: "Transaction has been fully reversed",
    },
    {
      case: "answers a bare 4xx",
      answer: () => new Response("Forbidden", { status: 403 }),
      shown: "HTTP 403",
    },
  ])(
    "when Paystack $case, nothing was refunded and the payment returns to the queue",
    async ({ answer, shown }) => {
      const { second } = await paidTwice();
      const client = kit.api.deps.gateways.paystack;
      const original = client.refund;
      client.refund = createPaystackClient({
        baseUrl: "http://paystack.test",
        secretKey: "sk_test_x",
        fetch: async () => answer(),
      }).refund;
      try {
        const refused = await refund(second);
        expect(refused.status).toBe(502);
        const message = (await refused.json()).error.message;
        expect(message).toContain(shown);
        expect(message).toContain("Nothing was refunded");
      } finally {
        client.refund = original;
      }
      expect((await kit.paymentRow(second)).status).toBe("duplicate");
      expect(await refundRows(second)).toEqual([expect.objectContaining({ status: "failed" })]);
      expect((await refund(second)).status).toBe(201);
    },
  );
});
