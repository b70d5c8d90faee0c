import { describe, expect, it } from "vitest";
import { useSandboxDatabase } from "../testing/sandbox-database.test-kit.ts";
import type { InvoiceInput } from "./client.ts";
import {
  AuthorizationHeader,
  DeactivateAnswer,
  DeactivateRequest,
  FinalizeForm,
  NotificationBody,
  PaymentInitAnswer,
  PaymentInitAnswerText,
  PaymentInitRequest,
  ReturnQuery,
  StatusAnswer,
  StatusPath,
} from "./contract-schemas.ts";
import { ECHANNEL, PAYMENT_INIT, remitaSandboxFor, TEST_REMITA } from "./sandbox.test-kit.ts";
import { statusHash } from "./hash.ts";

// Client and sandbox are held to one contract, written from Remita's SDKs and samples
// (contract-schemas.ts): our client's requests as the sandbox receives them, and the sandbox's
// answers, each checked against it, with the client run against the sandbox. Neither can drift
// from what Remita's sources show without failing here.

const sandboxDatabase = useSandboxDatabase();
const setUp = () => remitaSandboxFor(sandboxDatabase.db);

const invoice: InvoiceInput = {
  serviceTypeId: TEST_REMITA.serviceTypeId,
  orderId: "CCE-20250115-7K3QX9M2PZ4D",
  amountKobo: 12_000_050,
  payerName: "Amaka Obi",
  payerEmail: "amaka@example.com",
  payerPhone: "08030000001",
  description: "School fee 2024/2025, CCE-20250115-7K3QX9M2PZ4D",
  customFields: [{ name: "Matric Number", value: "NCE/2021/0042" }],
  lineItems: [
    {
      id: "tsa",
      beneficiaryName: "Crownfield College TSA",
      beneficiaryAccount: "0360883515",
      bankCode: "000",
      amountKobo: 11_500_050,
      bearsCharge: true,
    },
    {
      id: "ict",
      beneficiaryName: "Crownfield ICT vendor",
      beneficiaryAccount: "0123456789",
      bankCode: "057",
      amountKobo: 500_000,
      bearsCharge: false,
    },
  ],
};

const issues = (
  schema: { safeParse(value: unknown): { success: boolean; error?: unknown } },
  value: unknown,
) => {
  const parsed = schema.safeParse(value);
  return parsed.success ? [] : [parsed.error];
};

describe("the contract's schemas", () => {
  it("refuse what the sources rule out", () => {
    const body = {
      serviceTypeId: "4430731",
      amount: "25000",
      orderId: "R1",
      payerName: "A",
      payerEmail: "a@example.com",
      payerPhone: "080",
      description: "fee",
    };
    expect(issues(PaymentInitRequest, body)).toEqual([]);
    // The key in the body (old samples did), an amount as a number, kobo as naira with 3 decimals.
    expect(issues(PaymentInitRequest, { ...body, apiKey: "1946" })).not.toEqual([]);
    expect(issues(PaymentInitRequest, { ...body, amount: 25000 })).not.toEqual([]);
    expect(issues(PaymentInitRequest, { ...body, amount: "25000.505" })).not.toEqual([]);
    expect(
      issues(AuthorizationHeader, `remitaConsumerKey=1, remitaConsumerToken=${"a".repeat(128)}`),
    ).not.toEqual([]);
    expect(
      issues(AuthorizationHeader, `remitaConsumerKey=1,remitaConsumerToken=${"A".repeat(128)}`),
    ).not.toEqual([]);
    expect(issues(PaymentInitAnswerText, '{"statuscode":"025"}')).not.toEqual([]);
    expect(issues(StatusAnswer, { status: "01", amount: "1000" })).not.toEqual([]);
  });
});

describe("paymentinit", () => {
  it("our request, as the sandbox receives it, and its JSONP answer follow the contract", async () => {
    const sandbox = setUp();
    const { rrr } = await sandbox.client().generateRrr(invoice);
    const [request] = sandbox.received;
    expect(request!.method).toBe("POST");
    expect(request!.path).toBe(PAYMENT_INIT);
    expect(issues(AuthorizationHeader, request!.headers.get("authorization"))).toEqual([]);
    expect(request!.headers.get("content-type")).toBe("application/json");
    expect(issues(PaymentInitRequest, JSON.parse(request!.body))).toEqual([]);

    const answer = await (await sandbox.paymentInit({ orderId: "ORD-2" })).text();
    expect(issues(PaymentInitAnswerText, answer)).toEqual([]);
    // The SDKs strip the first seven characters and the last one.
    expect(issues(PaymentInitAnswer, JSON.parse(answer.slice(7, -1)))).toEqual([]);
    expect(rrr).toMatch(/^\d{12}$/);
  });

  it.each([
    ["a duplicate", { orderId: "ORD-1" }],
    [
      "a bad split",
      {
        orderId: "ORD-3",
        lineItems: [
          {
            lineItemsId: "a",
            beneficiaryName: "x",
            beneficiaryAccount: "0360883515",
            bankCode: "057",
            beneficiaryAmount: "1",
            deductFeeFrom: "1",
          },
        ],
      },
    ],
    ["an unknown service type", { orderId: "ORD-4", serviceTypeId: "1" }],
  ])("its refusal of %s is the same JSONP shape with an empty RRR", async (_case, body) => {
    const sandbox = setUp();
    await sandbox.paymentInit({ orderId: "ORD-1" });
    const answer = await (await sandbox.paymentInit(body)).text();
    expect(issues(PaymentInitAnswerText, answer)).toEqual([]);
    const inner = JSON.parse(answer.slice(7, -1));
    expect(issues(PaymentInitAnswer, inner)).toEqual([]);
    expect(inner.RRR).toBe("");
  });

  it("a resent order id is recovered through orderstatus.reg, each call by the contract", async () => {
    const sandbox = setUp();
    const first = await sandbox.client().generateRrr(invoice);
    const again = await sandbox.client().generateRrr(invoice);
    expect(again).toEqual({ rrr: first.rrr, recovered: true });
    const lookUp = sandbox.received.at(-1)!;
    expect(issues(StatusPath, lookUp.path)).toEqual([]);
    expect(lookUp.path).toMatch(/\/orderstatus\.reg$/);
  });
});

describe("status.reg and orderstatus.reg", () => {
  it("our requests follow the contract, and the answers in every state do", async () => {
    const sandbox = setUp();
    const client = sandbox.client();
    const { rrr } = await client.generateRrr(invoice);
    const answers: unknown[] = [];
    const ask = async () => {
      answers.push(
        await sandbox.status(rrr),
        await sandbox.status(invoice.orderId, { byOrder: true }),
      );
      await client.statusByRrr(rrr);
      await client.statusByOrderId(invoice.orderId);
    };
    await ask(); // pending
    await sandbox.app.request(`/remita/ecomm/finalize/${rrr}/decline`, { method: "POST" });
    await ask(); // failed
    await sandbox.hook(`/__sandbox/rrr/${rrr}/pay`, { notify: false });
    await ask(); // paid
    answers.push(
      await sandbox.status("123456789012"),
      await sandbox.status("NONE", { byOrder: true }),
    );
    for (const answer of answers) expect(issues(StatusAnswer, answer)).toEqual([]);
    expect(answers.map((answer) => (answer as { status: string }).status)).toEqual([
      "021",
      "021",
      "02",
      "02",
      "01",
      "01",
      "022",
      "023",
    ]);
    for (const request of sandbox.received.slice(1)) {
      expect(request.method).toBe("GET");
      expect(issues(StatusPath, request.path)).toEqual([]);
      expect(issues(AuthorizationHeader, request.headers.get("authorization"))).toEqual([]);
    }
  });

  it("answer the same on the legacy /remita/ecomm path", async () => {
    const sandbox = setUp();
    const { rrr } = await sandbox.client().generateRrr(invoice);
    const legacy = await sandbox.status(rrr, { legacy: true });
    expect(issues(StatusAnswer, legacy)).toEqual([]);
    expect(legacy).toEqual(await sandbox.status(rrr));
  });
});

describe("deactivate.json", () => {
  it("our request and the sandbox's answers follow the contract", async () => {
    const sandbox = setUp();
    const client = sandbox.client();
    const { rrr } = await client.generateRrr(invoice);
    expect(await client.cancel(rrr)).toBe("cancelled");
    const request = sandbox.received.at(-1)!;
    expect(request.path).toBe(`${ECHANNEL}/v2/api/deactivate.json`);
    expect(issues(DeactivateRequest, JSON.parse(request.body))).toEqual([]);
    const again = await sandbox.app.request(`${ECHANNEL}/v2/api/deactivate.json`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        rrr: "123456789012",
        merchantId: TEST_REMITA.merchantId,
        hash: statusHash({
          key: "123456789012",
          apiKey: TEST_REMITA.apiKey,
          merchantId: TEST_REMITA.merchantId,
        }),
      }),
    });
    expect(issues(DeactivateAnswer, await again.json())).toEqual([]);
  });
});

describe("paying online and the notification", () => {
  it("our finalize.reg form, the return to the portal and Remita's notification follow the contract", async () => {
    const sandbox = setUp();
    const client = sandbox.client();
    const { rrr } = await client.generateRrr(invoice);
    const form = client.payOnlineForm(rrr, "http://localhost:4321/remita/verify");
    expect(issues(FinalizeForm, form.fields)).toEqual([]);
    expect(new URL(form.action).pathname).toBe("/remita/ecomm/finalize.reg");

    const page = await sandbox.app.request(new URL(form.action).pathname, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(form.fields).toString(),
    });
    expect(page.status).toBe(200);
    const back = await sandbox.app.request(`/remita/ecomm/finalize/${rrr}/pay`, { method: "POST" });
    const query = Object.fromEntries(new URL(back.headers.get("location")!).searchParams);
    expect(issues(ReturnQuery, query)).toEqual([]);
    expect(query).toEqual({ RRR: rrr, orderID: invoice.orderId });

    const [notification] = sandbox.notifications;
    expect(issues(NotificationBody, JSON.parse(notification!.body))).toEqual([]);
    expect(JSON.parse(notification!.body)[0]).toMatchObject({
      rrr,
      orderRef: invoice.orderId,
      amount: 120000.5,
      customFieldData: [{ DESCRIPTION: "Matric Number", COLVAL: "NCE/2021/0042" }],
    });
  });

  it("a bank payment's notification follows it too", async () => {
    const sandbox = setUp();
    const { rrr } = await sandbox.client().generateRrr(invoice);
    await sandbox.hook(`/__sandbox/rrr/${rrr}/pay`, { channel: "BRANCH" });
    const body = JSON.parse(sandbox.notifications[0]!.body);
    expect(issues(NotificationBody, body)).toEqual([]);
    expect(body[0].channel).toBe("BRANCH");
  });
});
