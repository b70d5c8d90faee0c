import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { PayInstructions } from "../../common/payments/offline-payment.ts";
import { payments } from "../db/schema.ts";
import { GatewayError, type OfflineChargeInput } from "../payments/gateway.ts";
import { createPaymentsKit, type PaymentsKit } from "../payments/payments.test-kit.ts";
import { HARNESS_REMITA, payRrrAtSandbox } from "../testing/api-harness.test-kit.ts";
import { finalizeHash } from "./hash.ts";
import type { RemitaGateway } from "./gateway.ts";

// The Remita gateway as the API holds it (deps.gateways.remita), against the harness's
// in-process Remita sandbox: RRRs, the status calls behind verify, and Remita's unsigned
// notifications confirmed through the one crediting path (decisions 187, 188).

let kit: PaymentsKit;
let remita: RemitaGateway;

beforeAll(async () => {
  kit = await createPaymentsKit();
  remita = kit.api.deps.gateways.remita as RemitaGateway;
});
afterAll(() => kit.api.close());

const MINUTE = 60_000;

const charge = (fields: Partial<OfflineChargeInput> = {}): OfflineChargeInput => ({
  reference: `CCE-REMITA-${Math.random().toString(36).slice(2, 10).toUpperCase()}`,
  amountKobo: 12_000_000,
  email: "amaka@example.com",
  metadata: { student_id: 1, payment_session: "2024/2025" },
  channel: { kind: "remita" },
  payer: { name: "Amaka Obi", phone: "08030000001", matricNo: "NCE/2021/0042" },
  ...fields,
});

async function invoiceAtSandbox(rrr: string) {
  const response = await kit.api.remitaSandbox.request(`/__sandbox/rrr/${rrr}`, {
    headers: { authorization: `Bearer ${HARNESS_REMITA.apiKey}` },
  });
  return (await response.json()).invoice;
}

async function refusalOf(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(GatewayError);
  return error as GatewayError;
}

/**
 * A student's pending school-fee payment on Remita with its RRR, as the paying part makes one:
 * started, moved to Remita, invoiced, and its RRR kept on the row.
 */
async function remitaPayment() {
  const me = await kit.newStudent();
  const reference = await kit.start(me, "full");
  const row = await kit.paymentRow(reference);
  const instructions = await remita.startOfflineCharge(
    charge({ reference, amountKobo: row.amountKobo }),
  );
  if (instructions.channel !== "remita") throw new Error("not an RRR");
  await kit.api.db
    .update(payments)
    .set({
      gateway: "remita",
      channel: "remita",
      gatewayReference: instructions.rrr,
      payInstructions: instructions,
    })
    .where(eq(payments.id, row.id));
  return { me, reference, rrr: instructions.rrr };
}

const notify = (body: string) =>
  kit.api.request("/remita/webhook", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body,
  });

describe("the Remita gateway", () => {
  it("is always there, offering neither a transaction list nor a refund API", () => {
    expect(remita).toMatchObject({
      name: "remita",
      label: "Remita",
      offers: { transactionList: false, refundApi: false },
    });
    expect(kit.api.deps.offeredGateways).toEqual(["paystack"]);
  });

  it("refuses a card checkout, and listing or refunding, as refusals", async () => {
    for (const promise of [
      remita.startCheckout({
        reference: "R",
        amountKobo: 100,
        email: "a@example.com",
        callbackUrl: "http://localhost:4321/remita/verify",
        metadata: {},
      }),
      remita.listTransactions({ from: new Date(), to: new Date(), page: 1, perPage: 50 }),
      remita.listRefunds({ from: new Date(), to: new Date(), page: 1, perPage: 50 }),
      remita.refund({ reference: "R", amountKobo: 100, merchantNote: "x" }),
    ]) {
      expect((await refusalOf(promise)).isRefusal).toBe(true);
    }
    const error = await refusalOf(
      remita.listTransactions({ from: new Date(), to: new Date(), page: 1, perPage: 50 }),
    );
    expect(error.message).toBe("Remita has no transaction list for merchants");
  });
});

describe("startOfflineCharge on the remita channel", () => {
  it("generates an RRR and answers the instructions to pay it online or at a bank", async () => {
    const input = charge();
    const instructions = await remita.startOfflineCharge(input);
    expect(PayInstructions.parse(instructions)).toEqual(instructions);
    if (instructions.channel !== "remita") throw new Error("not an RRR");
    expect(instructions.rrr).toMatch(/^\d{12}$/);
    expect(instructions.pay_online).toEqual({
      action: "http://remita-sandbox.test/remita/ecomm/finalize.reg",
      fields: {
        merchantId: HARNESS_REMITA.merchantId,
        hash: finalizeHash({
          merchantId: HARNESS_REMITA.merchantId,
          rrr: instructions.rrr,
          apiKey: HARNESS_REMITA.apiKey,
        }),
        rrr: instructions.rrr,
        responseurl: "http://localhost:4321/remita/verify",
      },
    });
    expect(await invoiceAtSandbox(instructions.rrr)).toMatchObject({
      orderId: input.reference,
      amountKobo: 12_000_000,
      serviceTypeId: "4430731",
      payerName: "Amaka Obi",
      payerPhone: "08030000001",
      description: `School fee 2024/2025, ${input.reference}`,
      customFields: [{ name: "Matric Number", value: "NCE/2021/0042" }],
    });
  });

  it("invoices each kind of fee under its own service type", async () => {
    const instructions = await remita.startOfflineCharge(charge({ serviceKind: "transcript" }));
    if (instructions.channel !== "remita") throw new Error("not an RRR");
    expect(await invoiceAtSandbox(instructions.rrr)).toMatchObject({
      serviceTypeId: "4430732",
      description: expect.stringMatching(/^Transcript fee/),
    });
  });

  it("sends the fee's split as line items", async () => {
    const instructions = await remita.startOfflineCharge(
      charge({
        lineItems: [
          {
            id: "tsa",
            beneficiaryName: "College TSA",
            beneficiaryAccount: "0360883515",
            bankCode: "000",
            amountKobo: 11_500_000,
            bearsCharge: true,
          },
          {
            id: "ict",
            beneficiaryName: "ICT vendor",
            beneficiaryAccount: "0123456789",
            bankCode: "057",
            amountKobo: 500_000,
            bearsCharge: false,
          },
        ],
      }),
    );
    if (instructions.channel !== "remita") throw new Error("not an RRR");
    const invoice = await invoiceAtSandbox(instructions.rrr);
    expect(invoice.lineItems.map((item: { amountKobo: number }) => item.amountKobo)).toEqual([
      11_500_000, 500_000,
    ]);
  });

  it("answers the same RRR when the same reference is sent again", async () => {
    const input = charge();
    const first = await remita.startOfflineCharge(input);
    const again = await remita.startOfflineCharge(input);
    expect(again).toEqual(first);
  });

  it.each([
    ["another channel", { channel: { kind: "ussd", bank: "737" } as const }],
    ["no payer", { payer: undefined }],
    [
      "a split that does not add up",
      {
        lineItems: [
          {
            id: "tsa",
            beneficiaryName: "College TSA",
            beneficiaryAccount: "0360883515",
            bankCode: "000",
            amountKobo: 100,
            bearsCharge: true,
          },
        ],
      },
    ],
  ])("refuses %s, asking Remita nothing", async (_case, fields) => {
    const error = await refusalOf(remita.startOfflineCharge(charge(fields)));
    expect(error.isRefusal).toBe(true);
  });
});

describe("verify", () => {
  it("asks by RRR when the payment has one, by our reference when not", async () => {
    const { reference, rrr } = await remitaPayment();
    const pending = await remita.verify({ reference, gatewayReference: rrr });
    expect(pending).toEqual({
      reference,
      status: "pending",
      amountKobo: expect.any(Number),
      currency: "NGN",
      paidAt: null,
      channel: "remita",
      gatewayResponse: "Transaction Pending (021)",
      gatewayReference: rrr,
    });
    expect(await remita.verify({ reference, gatewayReference: null })).toEqual(pending);
  });

  it("answers success with when it was paid", async () => {
    const { reference, rrr } = await remitaPayment();
    await payRrrAtSandbox(kit.api, rrr, { notify: false });
    expect(await remita.verify({ reference, gatewayReference: rrr })).toMatchObject({
      status: "success",
      paidAt: kit.api.clock.now(),
      gatewayResponse: "Approved (01)",
    });
  });

  it("answers null for a payment Remita does not know", async () => {
    expect(await remita.verify({ reference: "CCE-NOWHERE", gatewayReference: null })).toBeNull();
    expect(
      await remita.verify({ reference: "CCE-NOWHERE", gatewayReference: "123456789012" }),
    ).toBeNull();
  });

  it("refuses an RRR that was made for another order", async () => {
    const { rrr } = await remitaPayment();
    await refusalOf(remita.verify({ reference: "CCE-SOMEONE-ELSE", gatewayReference: rrr }));
  });

  it("is credited through the student's own check (GET /paystack/verify/:reference)", async () => {
    const { me, reference, rrr } = await remitaPayment();
    await payRrrAtSandbox(kit.api, rrr, { notify: false });
    const response = await kit.verify(reference, me.token);
    expect(response.status).toBe(200);
    expect((await kit.paymentRow(reference)).status).toBe("success");
  });
});

describe("Remita's notification at POST /remita/webhook", () => {
  it("credits a paid RRR once, confirmed by the status call, however often it is replayed", async () => {
    const { reference, rrr } = await remitaPayment();
    await payRrrAtSandbox(kit.api, rrr);
    const body = kit.api.remitaNotifications.find((sent) => sent.includes(rrr))!;
    for (let i = 0; i < 3; i++) {
      const response = await notify(body);
      expect(response.status).toBe(200);
      expect(await response.text()).toBe("OK");
    }
    const row = await kit.paymentRow(reference);
    expect(row).toMatchObject({ status: "success", channel: "remita", gatewayReference: rrr });
    expect(kit.creditLines(reference)).toHaveLength(1);
  });

  it("believes nothing a forged notification says: an unpaid RRR stays pending", async () => {
    const { reference, rrr } = await remitaPayment();
    const forged = JSON.stringify([
      { rrr, orderRef: reference, orderId: reference, channel: "BRANCH", amount: 120000 },
    ]);
    const response = await notify(forged);
    expect(await response.text()).toBe("OK");
    expect((await kit.paymentRow(reference)).status).toBe("pending");
  });

  it("finds the payment by its RRR alone", async () => {
    const { reference, rrr } = await remitaPayment();
    await payRrrAtSandbox(kit.api, rrr, { notify: false });
    await notify(JSON.stringify([{ rrr }]));
    expect((await kit.paymentRow(reference)).status).toBe("success");
  });

  it("credits a bank payment that arrives days later when its notification comes", async () => {
    const { reference, rrr } = await remitaPayment();
    const sent = kit.api.remitaNotifications.length;
    expect(await payRrrAtSandbox(kit.api, rrr, { delayMs: 3 * 24 * 60 * MINUTE })).toMatchObject({
      state: "scheduled",
    });
    kit.api.clock.advance(3 * 24 * 60 * MINUTE);
    // The next call that reaches the sandbox finds the payment due, and Remita notifies.
    expect(await remita.verify({ reference, gatewayReference: rrr })).toMatchObject({
      status: "success",
    });
    const body = kit.api.remitaNotifications.slice(sent).find((one) => one.includes(rrr))!;
    await notify(body);
    expect((await kit.paymentRow(reference)).status).toBe("success");
  });

  it.each([
    ["not JSON", "rrr=1"],
    ["an unknown payment", JSON.stringify([{ rrr: "999999999999", orderRef: "CCE-NOWHERE" }])],
  ])("answers %s with 200 all the same, so Remita does not resend it", async (_case, body) => {
    const response = await notify(body);
    expect(response.status).toBe(200);
  });

  it("answers OK before a status call that hangs, and credits once the call comes back", async () => {
    const { reference, rrr } = await remitaPayment();
    await payRrrAtSandbox(kit.api, rrr, { notify: false });
    const gateway = kit.api.deps.gateways.remita;
    const verify = gateway.verify;
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    gateway.verify = async (payment) => (await held, verify(payment));
    try {
      const response = await notify(JSON.stringify([{ rrr, orderRef: reference }]));
      expect(await response.text()).toBe("OK");
      expect((await kit.paymentRow(reference)).status).toBe("pending");
      release();
      await vi.waitFor(async () =>
        expect((await kit.paymentRow(reference)).status).toBe("success"),
      );
      expect(kit.creditLines(reference)).toHaveLength(1);
    } finally {
      gateway.verify = verify;
      release();
    }
  });

  it("is left for the reconciler when Remita cannot be asked", async () => {
    const { reference, rrr } = await remitaPayment();
    await payRrrAtSandbox(kit.api, rrr);
    await kit.api.remitaSandbox.request("/__sandbox/faults", {
      method: "POST",
      headers: {
        authorization: `Bearer ${HARNESS_REMITA.apiKey}`,
        "content-type": "application/json",
      },
      body: JSON.stringify({ errorShare: 1, timeoutShare: 0 }),
    });
    try {
      const response = await notify(JSON.stringify([{ rrr, orderRef: reference }]));
      expect(await response.text()).toBe("OK");
      expect((await kit.paymentRow(reference)).status).toBe("pending");
    } finally {
      await kit.api.remitaSandbox.request("/__sandbox/faults", {
        method: "POST",
        headers: {
          authorization: `Bearer ${HARNESS_REMITA.apiKey}`,
          "content-type": "application/json",
        },
        body: JSON.stringify({ errorShare: 0, timeoutShare: 0 }),
      });
    }
  });
});
