import { describe, expect, it } from "vitest";
import { createPaystackClient, PaystackError } from "./client.ts";
import { loadPaystackContract } from "./openapi-contract.ts";
import { createPaystackSandbox } from "./sandbox.ts";
import { isValidPaystackSignature } from "./signature.ts";
import { useSandboxDatabase } from "../testing/sandbox-database.test-kit.ts";

// The sandbox's Transactions list and Refund answers, and our client's refund request, against
// the schemas of Paystack's published OpenAPI spec (decision 055; the calls of decisions 101-102).

const SECRET = "sk_test_bursary";
const contract = loadPaystackContract();
const LIST = "GET /transaction";
const REFUND = "POST /refund";
const REFUNDS = "GET /refund";

// Every sandbox of a test keeps its transactions in this database (decision 129).
const sandboxDatabase = useSandboxDatabase();

function setUp() {
  let clock = new Date("2025-03-01T08:00:00.000Z");
  const webhooks: { event: string; data: Record<string, unknown>; signed: boolean }[] = [];
  const app = createPaystackSandbox({
    db: sandboxDatabase.db,
    secretKey: SECRET,
    publicUrl: "http://localhost:4329",
    webhookUrl: "http://api.test/paystack/webhook",
    now: () => clock,
    fetch: async (_url, init) => {
      const body = String(init?.body);
      const signed = isValidPaystackSignature(
        body,
        new Headers(init?.headers).get("x-paystack-signature") ?? undefined,
        SECRET,
      );
      webhooks.push({ ...JSON.parse(body), signed });
      return new Response(null, { status: 200 });
    },
  });
  const api = (path: string, init: RequestInit & { json?: unknown } = {}) =>
    app.request(path, {
      ...init,
      headers: { Authorization: `Bearer ${SECRET}`, "Content-Type": "application/json" },
      body: init.json === undefined ? init.body : JSON.stringify(init.json),
    });
  const sent: unknown[] = [];
  const client = createPaystackClient({
    baseUrl: "http://sandbox.test",
    secretKey: SECRET,
    fetch: async (input, init) => {
      if (typeof init?.body === "string") sent.push(JSON.parse(init.body));
      return app.request(String(input), init);
    },
  });
  /** Starts a transaction one hour after the previous one, paid when asked. */
  async function transaction(reference: string, paid: boolean, amount = 5_000_000) {
    clock = new Date(clock.getTime() + 3_600_000);
    await api("/transaction/initialize", {
      method: "POST",
      json: {
        email: "ada@example.com",
        amount,
        reference,
        metadata: { payment_session: "2024/2025" },
      },
    });
    if (paid) await api(`/__sandbox/transactions/${reference}/pay`, { method: "POST" });
  }
  return { api, client, sent, webhooks, transaction };
}

describe("GET /transaction (List Transactions)", () => {
  it("answers TransactionListResponse for paid and unpaid transactions, newest first, paged with meta", async () => {
    const { api, transaction } = setUp();
    await transaction("R-1", true);
    await transaction("R-2", false);
    await transaction("R-3", true);
    const response = await api("/transaction?perPage=2&page=1");
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(contract.response(LIST, 200)(body)).toEqual([]);
    expect(body.data.map((item: { reference: string }) => item.reference)).toEqual(["R-3", "R-2"]);
    expect(body.meta).toEqual({
      total: 3,
      total_volume: 15_000_000,
      skipped: 0,
      perPage: 2,
      page: 1,
      pageCount: 2,
    });
    const second = await (await api("/transaction?perPage=2&page=2")).json();
    expect(contract.response(LIST, 200)(second)).toEqual([]);
    expect(second.data.map((item: { reference: string }) => item.reference)).toEqual(["R-1"]);
  });

  it("filters by creation time (inclusive) and status", async () => {
    const { api, transaction } = setUp();
    await transaction("R-1", true); // 09:00
    await transaction("R-2", true); // 10:00
    await transaction("R-3", false); // 11:00
    const window = await (
      await api(
        "/transaction?from=2025-03-01T10:00:00.000Z&to=2025-03-01T11:00:00.000Z&status=success",
      )
    ).json();
    expect(window.data.map((item: { reference: string }) => item.reference)).toEqual(["R-2"]);
  });

  it("answers a bad key with the spec's 401 and a bad query with a refusal", async () => {
    const { transaction } = setUp();
    await transaction("R-1", true);
    const { api } = setUp();
    const wrongKey = createPaystackSandbox({
      db: sandboxDatabase.db,
      secretKey: SECRET,
      publicUrl: "http://x",
      webhookUrl: "http://y",
    });
    const refused = await wrongKey.request("/transaction", {
      headers: { Authorization: "Bearer sk_test_wrong" },
    });
    expect(refused.status).toBe(401);
    expect(contract.response(LIST, 401)(await refused.json())).toEqual([]);
    expect((await api("/transaction?page=0")).status).toBe(400);
    expect((await api("/transaction?status=paid")).status).toBe(400);
    // Dates JavaScript reads but the database cannot hold.
    expect((await api("/transaction?from=-271821-04-20T00:00:00.000Z")).status).toBe(400);
    expect((await api("/transaction?to=%2B275760-09-13T00:00:00.000Z")).status).toBe(400);
  });

  it("our client reads every page's transactions", async () => {
    const { client, transaction } = setUp();
    await transaction("R-1", true, 7_000_000);
    const page = await client.listTransactions({
      from: new Date("2025-03-01T00:00:00Z"),
      to: new Date("2025-03-02T00:00:00Z"),
      page: 1,
      perPage: 50,
    });
    expect(page.pageCount).toBe(1);
    expect(page.transactions).toEqual([
      expect.objectContaining({
        reference: "R-1",
        status: "success",
        amountKobo: 7_000_000,
        currency: "NGN",
        createdAt: new Date("2025-03-01T09:00:00Z"),
      }),
    ]);
  });
});

describe("POST /refund (Create Refund)", () => {
  it("our client's request follows RefundCreate and the answer RefundCreateResponse; refund.processed follows, signed", async () => {
    const { api, client, sent, webhooks, transaction } = setUp();
    await transaction("R-1", true);
    const refund = await client.refund({
      reference: "R-1",
      amountKobo: 5_000_000,
      merchantNote: "Paid twice",
    });
    expect(contract.request(REFUND)(sent.at(-1))).toEqual([]);
    expect(refund).toEqual({ id: 1, status: "pending" });

    const settled = await api("/__sandbox/refunds/1/process", { method: "POST" });
    expect(settled.status).toBe(200);
    const event = webhooks.at(-1)!;
    expect(event).toMatchObject({
      event: "refund.processed",
      signed: true,
      data: {
        status: "processed",
        transaction_reference: "R-1",
        amount: 5_000_000,
        currency: "NGN",
      },
    });
    // Refunded in full: Paystack lists it as reversed.
    const listed = await (await api("/transaction")).json();
    expect(listed.data[0]).toMatchObject({ reference: "R-1", status: "reversed" });
  });

  it("answers RefundCreateResponse and holds the money at once, so a second refund is refused", async () => {
    const { api, transaction } = setUp();
    await transaction("R-1", true);
    const first = await api("/refund", {
      method: "POST",
      json: { transaction: "R-1", amount: 3_000_000 },
    });
    expect(first.status).toBe(200);
    expect(contract.response(REFUND, 200)(await first.json())).toEqual([]);
    const over = await api("/refund", {
      method: "POST",
      json: { transaction: "R-1", amount: 2_000_001 },
    });
    expect(over.status).toBe(400);
    expect((await over.json()).message).toMatch(/cannot be more/);
    const rest = await api("/refund", { method: "POST", json: { transaction: "R-1" } });
    expect((await rest.json()).data.amount).toBe(2_000_000);
  });

  it("a failed refund sends refund.failed and frees the money again", async () => {
    const { api, webhooks, transaction } = setUp();
    await transaction("R-1", true);
    await api("/refund", { method: "POST", json: { transaction: "R-1" } });
    await api("/__sandbox/refunds/1/fail", { method: "POST" });
    expect(webhooks.at(-1)).toMatchObject({
      event: "refund.failed",
      data: { status: "failed", transaction_reference: "R-1" },
    });
    const again = await api("/__sandbox/refunds/1/process", { method: "POST" });
    expect((await again.json()).message).toBe("Refund was already settled");
    expect((await api("/refund", { method: "POST", json: { transaction: "R-1" } })).status).toBe(
      200,
    );
  });

  it.each([
    { case: "an unknown transaction", json: { transaction: "R-404" }, status: 404 },
    { case: "an unpaid transaction", json: { transaction: "R-2" }, status: 400 },
    { case: "no transaction", json: {}, status: 400 },
    { case: "another currency", json: { transaction: "R-1", currency: "USD" }, status: 400 },
    { case: "a zero amount", json: { transaction: "R-1", amount: 0 }, status: 400 },
    { case: "the id of an unpaid transaction", json: { transaction: 2 }, status: 400 },
    { case: "an id beyond any row", json: { transaction: 99_999_999_999 }, status: 404 },
  ])("refuses $case", async ({ json, status }) => {
    const { api, transaction } = setUp();
    await transaction("R-1", true);
    await transaction("R-2", false);
    const response = await api("/refund", { method: "POST", json });
    expect(response.status).toBe(status);
    expect((await response.json()).status).toBe(false);
  });

  it("refunds a transaction named by its id", async () => {
    const { api, transaction } = setUp();
    await transaction("R-1", true);
    const { id } = (await (await api("/transaction/verify/R-1")).json()).data;
    const refund = await api("/refund", { method: "POST", json: { transaction: id } });
    expect(refund.status).toBe(200);
    expect((await refund.json()).data).toMatchObject({
      amount: 5_000_000,
      transaction: { reference: "R-1" },
    });
  });

  it.each(["abc", "0", "99999999999", "1"])(
    "answers 404 to settling refund %s, which it never made",
    async (id) => {
      const { api } = setUp();
      const response = await api(`/__sandbox/refunds/${id}/process`, { method: "POST" });
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ status: false, message: "Refund not found" });
    },
  );

  it("our client reports Paystack's refusal as a PaystackError with its message", async () => {
    const { client, transaction } = setUp();
    await transaction("R-1", false);
    await expect(
      client.refund({ reference: "R-1", amountKobo: 100, merchantNote: "x" }),
    ).rejects.toThrow(PaystackError);
  });
});

describe("GET /refund (List Refunds)", () => {
  it("answers RefundListResponse, newest first, filtered by creation time and paged; our client reads it", async () => {
    const { api, client, transaction } = setUp();
    await transaction("R-1", true); // 09:00
    await transaction("R-2", true); // 10:00
    await api("/refund", { method: "POST", json: { transaction: "R-1", amount: 1_000_000 } });
    await api("/refund", { method: "POST", json: { transaction: "R-2" } });
    await api("/__sandbox/refunds/2/fail", { method: "POST" });
    const body = await (await api("/refund?perPage=1&page=1")).json();
    expect(contract.response(REFUNDS, 200)(body)).toEqual([]);
    expect(
      body.data.map((item: { transaction_reference: string }) => item.transaction_reference),
    ).toEqual(["R-2"]);
    expect(body.meta).toEqual({
      total: 2,
      skipped: 0,
      perPage: "1",
      page: 1,
      pageCount: 2,
      failedRefundCount: 1,
    });

    const page = await client.listRefunds({
      from: new Date("2025-03-01T00:00:00Z"),
      to: new Date("2025-03-02T00:00:00Z"),
      page: 1,
      perPage: 50,
    });
    expect(page).toEqual({
      pageCount: 1,
      refunds: [
        expect.objectContaining({
          id: 2,
          transactionReference: "R-2",
          amountKobo: 5_000_000,
          status: "failed",
        }),
        expect.objectContaining({
          id: 1,
          transactionReference: "R-1",
          amountKobo: 1_000_000,
          currency: "NGN",
          status: "pending",
          createdAt: new Date("2025-03-01T10:00:00Z"),
        }),
      ],
    });
    const none = await client.listRefunds({
      from: new Date("2025-03-02T00:00:00Z"),
      to: new Date("2025-03-03T00:00:00Z"),
      page: 1,
      perPage: 50,
    });
    expect(none).toEqual({ pageCount: 1, refunds: [] });
  });

  it("refuses a bad query and a bad key", async () => {
    const { api } = setUp();
    expect((await api("/refund?page=0")).status).toBe(400);
    expect((await api("/refund?from=-271821-04-20T00:00:00.000Z")).status).toBe(400);
    const wrongKey = createPaystackSandbox({
      db: sandboxDatabase.db,
      secretKey: SECRET,
      publicUrl: "http://x",
      webhookUrl: "http://y",
    });
    const refused = await wrongKey.request("/refund", {
      headers: { Authorization: "Bearer sk_test_wrong" },
    });
    expect(refused.status).toBe(401);
    expect(contract.response(REFUNDS, 401)(await refused.json())).toEqual([]);
  });
});
