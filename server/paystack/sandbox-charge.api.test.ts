import Ajv from "ajv";
import { describe, expect, it } from "vitest";
import { createPaystackClient, PaystackError } from "./client.ts";
import type { OfflineChargeInput } from "../payments/gateway.ts";
import { loadPaystackContract, readPaystackOperations } from "./openapi-contract.ts";
import { createPaystackSandbox } from "./sandbox.ts";
import { isValidPaystackSignature } from "./signature.ts";
import { useSandboxDatabase } from "../testing/sandbox-database.test-kit.ts";

// The Charge API for bank transfers and USSD, contract-tested like initialize and verify
// (contract.test.ts). Paystack's spec types ChargeCreateResponse as a completed charge and lists
// every field of one as required; a charge waiting for a transfer or a dialled code answers fewer
// (its guides show `pending_bank_transfer` and `pay_offline` answers). So the answer is checked
// against the spec's schema without `data.required`: every field sent has the spec's type.

const SECRET = "sk_test_sandbox";
const NOW = new Date("2025-01-15T09:15:02.000Z");
const CHARGE = "POST /charge";
const contract = loadPaystackContract();
const chargeRequest = contract.request(CHARGE);
const verifyResponse = contract.response("GET /transaction/verify/{reference}", 200);

const pendingChargeResponse = (() => {
  const schema = structuredClone(readPaystackOperations()[CHARGE]!.responses["200"]!) as {
    properties: { data: { required?: string[] } };
  };
  delete schema.properties.data.required;
  const validate = new Ajv({ strict: false, allErrors: true, validateFormats: false }).compile(
    schema,
  );
  return (value: unknown) =>
    validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
})();

// Every sandbox of a test keeps its transactions in this database (decision 129).
const sandboxDatabase = useSandboxDatabase();

function setUp() {
  const webhooks: { signature: string | null; body: string }[] = [];
  const app = createPaystackSandbox({
    db: sandboxDatabase.db,
    secretKey: SECRET,
    publicUrl: "http://localhost:4329",
    webhookUrl: "http://api.test/paystack/webhook",
    now: () => NOW,
    fetch: async (_url, init) => {
      webhooks.push({
        signature: new Headers(init?.headers).get("x-paystack-signature"),
        body: String(init?.body),
      });
      return new Response(null, { status: 200 });
    },
  });
  const sent: unknown[] = [];
  const clientFor = (secretKey: string) =>
    createPaystackClient({
      baseUrl: "http://sandbox.test",
      secretKey,
      fetch: async (input, init) => {
        if (typeof init?.body === "string") sent.push(JSON.parse(init.body));
        return app.request(String(input), init);
      },
    });
  const charge = (body: object, key = SECRET) =>
    app.request("/charge", {
      method: "POST",
      headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
      body: JSON.stringify({ email: "amaka@example.com", amount: 12_000_000, ...body }),
    });
  return { app, client: clientFor(SECRET), clientFor, sent, webhooks, charge };
}

const transfer: OfflineChargeInput = {
  reference: "FEES-2025-0002",
  amountKobo: 12_000_000,
  email: "amaka@example.com",
  metadata: { student_id: 42 },
  channel: { kind: "bank_transfer", expiresAt: new Date("2025-01-15T11:15:02.000Z") },
};
const ussd: OfflineChargeInput = {
  ...transfer,
  reference: "FEES-2025-0003",
  channel: { kind: "ussd", bank: "737" },
};

describe("the sandbox's POST /charge follows Paystack's OpenAPI spec", () => {
  it.each([
    {
      case: "bank transfer",
      body: { reference: "R-1", bank_transfer: { account_expires_at: "2025-01-15T11:15:02.000Z" } },
      status: "pending_bank_transfer",
    },
    { case: "USSD", body: { reference: "R-2", ussd: { type: "737" } }, status: "pay_offline" },
  ])(
    "$case → the spec's ChargeCreateResponse types, with status $status",
    async ({ body, status }) => {
      expect(chargeRequest({ email: "amaka@example.com", amount: 12_000_000, ...body })).toEqual(
        [],
      );
      const response = await setUp().charge(body);
      expect(response.status).toBe(200);
      const answer = await response.json();
      expect(pendingChargeResponse(answer)).toEqual([]);
      expect(answer).toMatchObject({
        status: true,
        message: "Charge attempted",
        data: { status, reference: body.reference },
      });
    },
  );

  it("the relaxed check still refuses a field of the wrong type", () => {
    expect(
      pendingChargeResponse({ status: true, message: "ok", data: { amount: "120000" } }),
    ).not.toEqual([]);
    expect(pendingChargeResponse({ status: true, message: "ok" })).not.toEqual([]);
  });

  it.each([
    {
      case: "a bad key",
      body: { ussd: { type: "737" } },
      key: "sk_test_wrong",
      status: 401,
      message: "Invalid key",
    },
    {
      case: "no channel",
      body: {},
      key: SECRET,
      status: 400,
      message: "Send exactly one payment channel: bank_transfer or ussd.",
    },
    {
      case: "both channels",
      body: { ussd: { type: "737" }, bank_transfer: {} },
      key: SECRET,
      status: 400,
      message: "Send exactly one payment channel: bank_transfer or ussd.",
    },
    {
      case: "an unknown USSD type",
      body: { ussd: { type: "123" } },
      key: SECRET,
      status: 400,
      message: "Invalid USSD type. Send one of 737, 919, 822 or 966.",
    },
  ])("refuses $case like Paystack", async ({ body, key, status, message }) => {
    const response = await setUp().charge(body, key);
    expect(response.status).toBe(status);
    const answer = await response.json();
    expect(answer).toMatchObject({ status: false, message });
    if (status === 401) expect(contract.response(CHARGE, 401)(answer)).toEqual([]);
  });
});

describe("our client's charges against the sandbox", () => {
  it("sends requests that follow the spec and reads the account and the USSD code", async () => {
    const { client, sent } = setUp();
    expect(await client.chargeOffline(transfer)).toEqual({
      channel: "bank_transfer",
      bank_name: "Test Bank",
      account_number: expect.stringMatching(/^\d{10}$/),
      account_name: "PAYSTACK CHECKOUT",
      expires_at: "2025-01-15T11:15:02.000Z",
    });
    expect(await client.chargeOffline(ussd)).toEqual({
      channel: "ussd",
      ussd_code: expect.stringMatching(/^\*737\*33\*4\*\d{5}#$/),
    });
    for (const body of sent) expect(chargeRequest(body)).toEqual([]);
  });

  it("a transfer paid at the simulate page: verify says success by bank_transfer, the webhook is signed", async () => {
    const { app, client, webhooks } = setUp();
    await client.chargeOffline(transfer);
    expect(await client.verify(transfer.reference)).toMatchObject({
      status: "pending",
      paidAt: null,
    });
    const page = await app.request(`/simulate/${transfer.reference}`);
    expect(await page.text()).toContain("₦120,000.00");

    const done = await app.request(`/simulate/${transfer.reference}`, {
      method: "POST",
      body: new FormData(),
    });
    expect(await done.text()).toContain("The signed charge.success webhook was delivered");
    expect(await client.verify(transfer.reference)).toMatchObject({
      status: "success",
      amountKobo: 12_000_000,
      channel: "bank_transfer",
    });
    const [webhook] = webhooks;
    expect(isValidPaystackSignature(webhook!.body, webhook!.signature, SECRET)).toBe(true);
    expect(
      verifyResponse({
        status: true,
        message: "Verification successful",
        ...JSON.parse(webhook!.body),
      }),
    ).toEqual([]);
  });

  it("a transfer of another amount arrives as that amount, with the one charged as requested_amount", async () => {
    const { app, client, webhooks } = setUp();
    await client.chargeOffline(transfer);
    const form = new FormData();
    form.set("amount", "100,000");
    await app.request(`/simulate/${transfer.reference}`, { method: "POST", body: form });
    expect(JSON.parse(webhooks[0]!.body).data).toMatchObject({
      amount: 10_000_000,
      requested_amount: 12_000_000,
    });
  });

  it("surfaces a duplicate reference as a PaystackError", async () => {
    const { client } = setUp();
    await client.chargeOffline(ussd);
    const error = await client.chargeOffline(ussd).catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(PaystackError);
    expect((error as PaystackError).paystackMessage).toBe("Duplicate Transaction Reference");
  });
});
