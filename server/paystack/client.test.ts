import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { createPaystackClient, PaystackError } from "./client.ts";
import type { InitializeInput } from "./client.ts";
import {
  hang,
  networkError,
  scriptedFetch,
  type Answer,
} from "../testing/scripted-fetch.test-kit.ts";

const SECRET = "sk_test_4c0ffee5ecret";
const BASE_URL = "https://paystack.test";

const json =
  (status: number, body: unknown): Answer =>
  () =>
    Response.json(body, { status });
const text =
  (status: number, body: string): Answer =>
  () =>
    new Response(body, { status });

function clientWith(fetch: typeof globalThis.fetch, extra: { timeoutMs?: number } = {}) {
  return createPaystackClient({ baseUrl: `${BASE_URL}/`, secretKey: SECRET, fetch, ...extra });
}

const input: InitializeInput = {
  reference: "FEES-2025-0001",
  amountKobo: 2_500_000,
  email: "amaka@example.com",
  callbackUrl: "https://portal.example/paystack/verify",
  metadata: { studentId: 42 },
};

const initialized = {
  status: true,
  message: "Authorization URL created",
  data: {
    authorization_url: "https://checkout.paystack.com/0peioxfhpn",
    access_code: "0peioxfhpn",
    reference: "FEES-2025-0001",
  },
};

function verified(data: Record<string, unknown> = {}) {
  return {
    status: true,
    message: "Verification successful",
    data: {
      id: 4099260516,
      domain: "test",
      status: "success",
      reference: "FEES-2025-0001",
      amount: 2_500_000,
      gateway_response: "Successful",
      paid_at: "2025-01-15T09:15:02.000Z",
      created_at: "2025-01-15T09:14:40.000Z",
      channel: "card",
      currency: "NGN",
      ...data,
    },
  };
}

async function failureOf(promise: Promise<unknown>): Promise<PaystackError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(PaystackError);
  return error as PaystackError;
}

describe("initialize", () => {
  it("posts the transaction with the secret key and returns the checkout URL", async () => {
    const { fetch, calls } = scriptedFetch(json(200, initialized));
    const result = await clientWith(fetch).initialize(input);

    expect(result).toEqual({
      authorizationUrl: "https://checkout.paystack.com/0peioxfhpn",
      accessCode: "0peioxfhpn",
      reference: "FEES-2025-0001",
    });
    expect(calls).toHaveLength(1);
    const [{ url, init }] = calls as [(typeof calls)[number]];
    expect(url).toBe(`${BASE_URL}/transaction/initialize`);
    expect(init.method).toBe("POST");
    expect(init.signal).toBeInstanceOf(AbortSignal);
    expect(init.headers).toEqual({
      Authorization: `Bearer ${SECRET}`,
      "Content-Type": "application/json",
      Accept: "application/json",
    });
    expect(JSON.parse(String(init.body))).toEqual({
      email: "amaka@example.com",
      amount: 2_500_000,
      currency: "NGN",
      reference: "FEES-2025-0001",
      callback_url: "https://portal.example/paystack/verify",
      metadata: { studentId: 42 },
    });
  });

  it.each([
    { case: "a server error", answer: json(500, { status: false, message: "Server error" }) },
    { case: "a network error", answer: networkError },
  ])("never retries after $case, so it cannot create a duplicate", async ({ answer }) => {
    const { fetch, calls } = scriptedFetch(answer, json(200, initialized));
    await failureOf(clientWith(fetch).initialize(input));
    expect(calls).toHaveLength(1);
  });
});

describe("verify", () => {
  it("parses a paid transaction", async () => {
    const { fetch, calls } = scriptedFetch(json(200, verified()));
    const transaction = await clientWith(fetch).verify("FEES-2025-0001");

    expect(transaction).toEqual({
      reference: "FEES-2025-0001",
      status: "success",
      amountKobo: 2_500_000,
      currency: "NGN",
      paidAt: new Date("2025-01-15T09:15:02.000Z"),
      channel: "card",
      gatewayResponse: "Successful",
    });
    expect(calls[0]?.url).toBe(`${BASE_URL}/transaction/verify/FEES-2025-0001`);
    expect(calls[0]?.init.method).toBe("GET");
  });

  it("parses an unpaid transaction and escapes the reference in the path", async () => {
    const unpaid = verified({ status: "abandoned", paid_at: null, reference: "a/b?c" });
    const { fetch, calls } = scriptedFetch(json(200, unpaid));
    const transaction = await clientWith(fetch).verify("a/b?c");

    expect(transaction).toMatchObject({ status: "abandoned", paidAt: null });
    expect(calls[0]?.url).toBe(`${BASE_URL}/transaction/verify/a%2Fb%3Fc`);
  });

  it.each([
    {
      case: "404 from the OpenAPI spec",
      answer: json(404, { status: false, message: "Transaction reference not found" }),
    },
    {
      case: "400 from the live API",
      answer: json(400, { status: false, message: "Transaction reference not found" }),
    },
  ])("resolves null for an unknown reference ($case)", async ({ answer }) => {
    const { fetch, calls } = scriptedFetch(answer);
    await expect(clientWith(fetch).verify("NOPE")).resolves.toBeNull();
    expect(calls).toHaveLength(1);
  });

  it("does not mistake a 404 page from a wrong base URL for an unknown reference", async () => {
    const { fetch } = scriptedFetch(text(404, "<h1>Not Found</h1>"));
    const error = await failureOf(clientWith(fetch).verify("FEES-2025-0001"));
    expect(error.httpStatus).toBe(404);
  });

  it("retries after 5xx answers and network errors, then succeeds", async () => {
    const { fetch, calls } = scriptedFetch(
      text(502, "Bad gateway"),
      networkError,
      json(200, verified()),
    );
    const transaction = await clientWith(fetch).verify("FEES-2025-0001");
    expect(transaction?.status).toBe("success");
    expect(calls).toHaveLength(3);
  });

  it("gives up after the configured retries", async () => {
    const { fetch, calls } = scriptedFetch(json(503, { status: false, message: "Unavailable" }));
    const client = createPaystackClient({
      baseUrl: BASE_URL,
      secretKey: SECRET,
      fetch,
      verifyRetries: 1,
    });
    const error = await failureOf(client.verify("FEES-2025-0001"));
    expect(error.httpStatus).toBe(503);
    expect(calls).toHaveLength(2);
  });

  it("does not retry a refusal", async () => {
    const { fetch, calls } = scriptedFetch(json(401, { status: false, message: "Invalid key" }));
    const error = await failureOf(clientWith(fetch).verify("FEES-2025-0001"));
    expect(error).toMatchObject({ httpStatus: 401, paystackMessage: "Invalid key" });
    expect(calls).toHaveLength(1);
  });

  it("refuses an answer about another reference", async () => {
    const { fetch } = scriptedFetch(json(200, verified({ reference: "SOMEONE-ELSE" })));
    await failureOf(clientWith(fetch).verify("FEES-2025-0001"));
  });
});

describe("failures", () => {
  it.each([
    { operation: "initialize", status: 400, message: "Duplicate Transaction Reference" },
    { operation: "initialize", status: 401, message: "Invalid key" },
    { operation: "verify", status: 401, message: "Invalid key" },
    { operation: "verify", status: 200, message: "Something odd" },
  ])("status:false ($operation, HTTP $status) carries Paystack's message", async (row) => {
    const { fetch } = scriptedFetch(json(row.status, { status: false, message: row.message }));
    const client = clientWith(fetch);
    const call = row.operation === "initialize" ? client.initialize(input) : client.verify("R-1");
    const error = await failureOf(call);
    expect(error.message).toContain(row.message);
    expect(error).toMatchObject({ httpStatus: row.status, paystackMessage: row.message });
  });

  it.each([
    { case: "a body that is not JSON", answer: text(200, "<html>maintenance</html>") },
    { case: "no data", answer: json(200, { status: true, message: "ok" }) },
    { case: "an amount as text", answer: json(200, verified({ amount: "2500000" })) },
    { case: "a paid_at that is not a date", answer: json(200, verified({ paid_at: "yesterday" })) },
    { case: "no status in data", answer: json(200, verified({ status: undefined })) },
  ])("an unexpected verify answer ($case) is a PaystackError", async ({ answer }) => {
    const { fetch } = scriptedFetch(answer);
    const client = createPaystackClient({
      baseUrl: BASE_URL,
      secretKey: SECRET,
      fetch,
      verifyRetries: 0,
    });
    const error = await failureOf(client.verify("FEES-2025-0001"));
    expect(error.message).toMatch(/unexpected answer to verify/);
  });

  it("an initialize answer without an access code is a PaystackError", async () => {
    const body = { ...initialized, data: { ...initialized.data, access_code: undefined } };
    const { fetch } = scriptedFetch(json(200, body));
    const error = await failureOf(clientWith(fetch).initialize(input));
    expect(error.message).toMatch(/data\.access_code/);
  });

  it("times out a call that never answers", async () => {
    const { fetch, calls } = scriptedFetch(hang);
    const error = await failureOf(clientWith(fetch, { timeoutMs: 20 }).initialize(input));
    expect(error.message).toBe("Paystack did not answer initialize within 20 ms");
    expect(error.httpStatus).toBeNull();
    expect(calls).toHaveLength(1);
  });

  it("retries a verify that timed out", async () => {
    const { fetch, calls } = scriptedFetch(hang, json(200, verified()));
    const transaction = await clientWith(fetch, { timeoutMs: 20 }).verify("FEES-2025-0001");
    expect(transaction?.status).toBe("success");
    expect(calls).toHaveLength(2);
  });

  it("never puts the secret key in an error message", async () => {
    const echoes: Answer[] = [
      json(401, { status: false, message: `Invalid key: ${SECRET}` }),
      text(500, `upstream said Bearer ${SECRET}`),
      () => {
        throw new TypeError(`fetch failed for Bearer ${SECRET}`);
      },
      hang,
      json(200, { status: true, message: SECRET }),
    ];
    for (const answer of echoes) {
      const { fetch } = scriptedFetch(answer);
      const client = createPaystackClient({
        baseUrl: BASE_URL,
        secretKey: SECRET,
        fetch,
        timeoutMs: 20,
        verifyRetries: 0,
      });
      for (const call of [client.initialize(input), client.verify("FEES-2025-0001")]) {
        const error = await failureOf(call);
        // inspect() is what console.error prints, including any cause.
        expect(inspect(error, { depth: 5 })).not.toContain(SECRET);
        expect(`${error.message} ${error.paystackMessage}`).not.toContain(SECRET);
      }
    }
  });
});
