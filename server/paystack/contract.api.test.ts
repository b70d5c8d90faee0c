import { describe, expect, it } from "vitest";
import { createPaystackClient, PaystackError } from "./client.ts";
import type { InitializeInput } from "./client.ts";
import { loadPaystackContract } from "./openapi-contract.ts";
import { createPaystackSandbox } from "./sandbox.ts";
import { isValidPaystackSignature } from "./signature.ts";
import { useSandboxDatabase } from "../testing/sandbox-database.test-kit.ts";

// The sandbox's answers and our client's requests are checked against the schemas of Paystack's
// published OpenAPI spec (committed in schemas/; openapi-schemas.test.ts keeps them in step with
// the spec), and our client is run against the sandbox, so client, sandbox and spec cannot drift.

const SECRET = "sk_test_sandbox";
const NOW = new Date("2025-01-15T09:15:02.000Z");
const contract = loadPaystackContract();
const INITIALIZE = "POST /transaction/initialize";
const VERIFY = "GET /transaction/verify/{reference}";
const initializeRequest = contract.request(INITIALIZE);
const initializeResponse = contract.response(INITIALIZE, 200);
const verifyResponse = contract.response(VERIFY, 200);

// Every sandbox of a test keeps its transactions in this database (decision 129).
const sandboxDatabase = useSandboxDatabase();

function setUp() {
  const webhooks: { url: string; signature: string | null; body: string }[] = [];
  const app = createPaystackSandbox({
    db: sandboxDatabase.db,
    secretKey: SECRET,
    publicUrl: "http://localhost:4329",
    webhookUrl: "http://api.test/paystack/webhook",
    now: () => NOW,
    fetch: async (url, init) => {
      const signature = new Headers(init?.headers).get("x-paystack-signature");
      webhooks.push({ url: String(url), signature, body: String(init?.body) });
      return new Response(null, { status: 200 });
    },
  });
  const api = (path: string, init: RequestInit & { headers?: Record<string, string> } = {}) =>
    app.request(path, { ...init, headers: { Authorization: `Bearer ${SECRET}`, ...init.headers } });
  // What our client sends, as the sandbox receives it.
  const sent: { path: string; body: unknown }[] = [];
  const clientFor = (secretKey: string) =>
    createPaystackClient({
      baseUrl: "http://sandbox.test",
      secretKey,
      fetch: async (input, init) => {
        const body = typeof init?.body === "string" ? JSON.parse(init.body) : undefined;
        sent.push({ path: new URL(String(input)).pathname, body });
        return app.request(String(input), init);
      },
    });
  return { app, api, client: clientFor(SECRET), clientFor, webhooks, sent };
}

const payment: InitializeInput = {
  reference: "FEES-2025-0001",
  amountKobo: 2_500_050,
  email: "amaka@example.com",
  callbackUrl: "http://localhost:4321/paystack/verify",
  metadata: { studentId: 42, session: "2024/2025" },
};

type Api = ReturnType<typeof setUp>["api"];

async function initialize(api: Api, body: object = {}) {
  return api("/transaction/initialize", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email: "amaka@example.com", amount: 2_500_050, ...body }),
  });
}

describe("the OpenAPI checks", () => {
  it.each([
    { case: "no data", body: { status: true, message: "ok" } },
    { case: "an amount as text", body: { status: true, message: "ok", data: { amount: "5" } } },
  ])("reject a VerifyResponse with $case", ({ body }) => {
    expect(verifyResponse(body)).not.toEqual([]);
  });

  it("reject an initialize request without an amount, or with one in naira text", () => {
    expect(initializeRequest({ email: "amaka@example.com" })).not.toEqual([]);
    expect(initializeRequest({ email: "amaka@example.com", amount: "25000.50" })).not.toEqual([]);
  });

  it("reject an initialize answer without an access code", () => {
    const body = { status: true, message: "ok", data: { authorization_url: "x", reference: "r" } };
    expect(initializeResponse(body)).not.toEqual([]);
  });
});

describe("the sandbox's answers follow Paystack's OpenAPI spec", () => {
  it("initialize → TransactionInitializeResponse", async () => {
    const { api } = setUp();
    const response = await initialize(api, { reference: "R-1", metadata: { a: 1 } });
    expect(response.status).toBe(200);
    expect(initializeResponse(await response.json())).toEqual([]);
  });

  it.each([
    { case: "unpaid", outcome: null, status: "abandoned" },
    { case: "paid", outcome: "pay", status: "success" },
    { case: "declined", outcome: "decline", status: "failed" },
    { case: "abandoned at checkout", outcome: "abandon", status: "abandoned" },
  ])("verify ($case) → VerifyResponse", async ({ outcome, status }) => {
    const { app, api } = setUp();
    const { data } = await (await initialize(api, { reference: "R-1" })).json();
    if (outcome) await app.request(`/checkout/${data.access_code}/${outcome}`, { method: "POST" });

    const body = await (await api("/transaction/verify/R-1")).json();
    expect(verifyResponse(body)).toEqual([]);
    expect(body.data.status).toBe(status);
  });

  it("the charge.success webhook carries VerifyResponse data", async () => {
    const { api, webhooks } = setUp();
    await initialize(api, { reference: "R-1" });
    await api("/__sandbox/transactions/R-1/pay", { method: "POST" });

    const event = JSON.parse(webhooks[0]!.body);
    expect(event.event).toBe("charge.success");
    expect(verifyResponse({ status: true, message: "Verification successful", ...event })).toEqual(
      [],
    );
  });

  // The schemas the spec gives for these paths' 4xx answers.
  it.each([
    {
      case: "a bad key",
      status: 401,
      operation: VERIFY,
      request: (api: Api) =>
        api("/transaction/verify/R-1", { headers: { Authorization: "Bearer sk_test_wrong" } }),
    },
    {
      case: "an unknown reference",
      status: 404,
      operation: VERIFY,
      request: (api: Api) => api("/transaction/verify/R-404"),
    },
    {
      case: "a duplicate reference",
      status: 400,
      operation: INITIALIZE,
      request: async (api: Api) => {
        await initialize(api, { reference: "R-1" });
        return initialize(api, { reference: "R-1" });
      },
    },
    {
      case: "a missing e-mail",
      status: 400,
      operation: INITIALIZE,
      request: (api: Api) => initialize(api, { email: undefined }),
    },
  ])("refusing $case → $operation's $status answer", async ({ request, operation, status }) => {
    const { api } = setUp();
    const response = await request(api);
    expect(response.status).toBe(status);
    const body = await response.json();
    expect(body.status).toBe(false);
    expect(contract.response(operation, status)(body)).toEqual([]);
  });
});

describe("our client against the sandbox", () => {
  it("sends an initialize request that follows Paystack's OpenAPI spec", async () => {
    const { client, sent } = setUp();
    await client.initialize(payment);
    const [request] = sent;
    expect(request?.path).toBe("/transaction/initialize");
    expect(initializeRequest(request?.body)).toEqual([]);
  });

  it("initialize → pay at checkout → verify; the webhook is signed", async () => {
    const { app, client, webhooks } = setUp();
    const { authorizationUrl, reference } = await client.initialize(payment);
    expect(reference).toBe(payment.reference);

    const checkoutPath = new URL(authorizationUrl).pathname;
    const page = await app.request(checkoutPath);
    expect(await page.text()).toContain("₦25,000.50");
    const paid = await app.request(`${checkoutPath}/pay`, { method: "POST" });
    expect(paid.status).toBe(303);
    expect(paid.headers.get("location")).toBe(
      "http://localhost:4321/paystack/verify?trxref=FEES-2025-0001&reference=FEES-2025-0001",
    );

    expect(await client.verify(reference)).toEqual({
      reference: payment.reference,
      status: "success",
      amountKobo: 2_500_050,
      currency: "NGN",
      paidAt: NOW,
      channel: "card",
      gatewayResponse: "Successful",
    });

    expect(webhooks).toHaveLength(1);
    const [webhook] = webhooks as [(typeof webhooks)[number]];
    expect(webhook.url).toBe("http://api.test/paystack/webhook");
    expect(isValidPaystackSignature(webhook.body, webhook.signature, SECRET)).toBe(true);
    expect(JSON.parse(webhook.body)).toMatchObject({
      event: "charge.success",
      data: {
        reference: payment.reference,
        amount: 2_500_050,
        status: "success",
        metadata: payment.metadata,
      },
    });
  });

  it.each([
    { outcome: "decline", status: "failed", gatewayResponse: "Declined" },
    {
      outcome: "abandon",
      status: "abandoned",
      gatewayResponse: "The transaction was not completed",
    },
  ])("sees a checkout that ends in $outcome as $status", async (row) => {
    const { app, client, webhooks } = setUp();
    const { authorizationUrl } = await client.initialize(payment);
    await app.request(`${new URL(authorizationUrl).pathname}/${row.outcome}`, { method: "POST" });

    expect(await client.verify(payment.reference)).toMatchObject({
      status: row.status,
      gatewayResponse: row.gatewayResponse,
      paidAt: null,
    });
    expect(webhooks).toEqual([]);
  });

  it("resolves null for a reference the sandbox never saw", async () => {
    await expect(setUp().client.verify("NEVER-SEEN")).resolves.toBeNull();
  });

  it.each([
    {
      case: "a wrong key",
      message: "Invalid key",
      act: (s: ReturnType<typeof setUp>) => s.clientFor("sk_test_wrong").initialize(payment),
    },
    {
      case: "a duplicate reference",
      message: "Duplicate Transaction Reference",
      act: async (s: ReturnType<typeof setUp>) => {
        await s.client.initialize(payment);
        return s.client.initialize(payment);
      },
    },
  ])("surfaces $case as a PaystackError", async ({ act, message }) => {
    const error = await act(setUp()).catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(PaystackError);
    expect((error as PaystackError).paystackMessage).toBe(message);
  });
});
