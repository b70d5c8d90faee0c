import { afterEach, describe, expect, it, vi } from "vitest";
import { formatAmount } from "../http/sandbox-page.ts";
import { createPaystackSandbox } from "./sandbox.ts";
import { useSandboxDatabase } from "../testing/sandbox-database.test-kit.ts";

const SECRET = "sk_test_sandbox";
const AUTH = { Authorization: `Bearer ${SECRET}` };

type Receiver = (request: Request) => Response | Promise<Response>;

// Every sandbox of a test keeps its transactions in this database (decision 129).
const sandboxDatabase = useSandboxDatabase();

function setUp(receiver: Receiver = () => new Response("ok")) {
  const webhooks: string[] = [];
  const app = createPaystackSandbox({
    db: sandboxDatabase.db,
    secretKey: SECRET,
    publicUrl: "http://localhost:4329/",
    webhookUrl: "http://api.test/paystack/webhook",
    fetch: async (url, init) => {
      webhooks.push(String(init?.body));
      return receiver(new Request(url, init));
    },
  });

  const initialize = (body: unknown, headers: Record<string, string> = AUTH) =>
    app.request("/transaction/initialize", {
      method: "POST",
      headers: { "Content-Type": "application/json", ...headers },
      body: typeof body === "string" ? body : JSON.stringify(body),
    });
  const verify = (reference: string) =>
    app.request(`/transaction/verify/${reference}`, { headers: AUTH });
  const checkout = (accessCode: string, outcome?: string) =>
    outcome
      ? app.request(`/checkout/${accessCode}/${outcome}`, { method: "POST" })
      : app.request(`/checkout/${accessCode}`);
  const start = async (body: object = {}) => {
    const response = await initialize({
      email: "amaka@example.com",
      amount: 2_500_000,
      reference: "FEES-1",
      callback_url: "http://localhost:4321/paystack/verify?from=fees",
      ...body,
    });
    expect(response.status).toBe(200);
    return (await response.json()).data as { access_code: string; authorization_url: string };
  };
  const statusOf = async (reference = "FEES-1") =>
    (await (await verify(reference)).json()).data.status;

  return { app, webhooks, initialize, verify, checkout, start, statusOf };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("API refusals", () => {
  it.each<{ case: string; headers: Record<string, string> }>([
    { case: "no Authorization header", headers: {} },
    { case: "another key", headers: { Authorization: "Bearer sk_test_other" } },
    { case: "the key without Bearer", headers: { Authorization: SECRET } },
    { case: "an empty bearer", headers: { Authorization: "Bearer " } },
  ])("answers 401 Invalid key for $case on every API route", async ({ headers }) => {
    const { app, initialize, start } = setUp();
    await start();
    const answers = [
      await initialize({ email: "a@example.com", amount: 5000 }, headers),
      await app.request("/transaction/verify/FEES-1", { headers }),
      await app.request("/__sandbox/transactions/FEES-1/pay", { method: "POST", headers }),
    ];
    for (const answer of answers) {
      expect(answer.status).toBe(401);
      expect(await answer.json()).toEqual({ status: false, message: "Invalid key" });
    }
  });

  it.each([
    { case: "no e-mail", body: { amount: 5000 }, message: "Invalid Email Address Passed" },
    {
      case: "a bad e-mail",
      body: { email: "amaka", amount: 5000 },
      message: "Invalid Email Address Passed",
    },
    { case: "no amount", body: { email: "a@example.com" }, message: "Invalid Amount Sent" },
    {
      case: "a zero amount",
      body: { email: "a@example.com", amount: 0 },
      message: "Invalid Amount Sent",
    },
    {
      case: "a negative amount",
      body: { email: "a@example.com", amount: -5 },
      message: "Invalid Amount Sent",
    },
    {
      case: "a fractional amount",
      body: { email: "a@example.com", amount: 50.5 },
      message: "Invalid Amount Sent",
    },
    {
      case: "a non-numeric amount",
      body: { email: "a@example.com", amount: "5k" },
      message: "Invalid Amount Sent",
    },
    {
      case: "an unknown currency",
      body: { email: "a@example.com", amount: 5000, currency: "XYZ" },
      message: "Currency not supported by merchant",
    },
    {
      case: "a reference with spaces",
      body: { email: "a@example.com", amount: 5000, reference: "FEES 1" },
      message: "Invalid transaction reference. Only -, ., = and alphanumeric characters allowed.",
    },
    {
      case: "a javascript: callback",
      body: { email: "a@example.com", amount: 5000, callback_url: "javascript:alert(1)" },
      message: "Invalid callback_url. Send a fully qualified http(s) URL.",
    },
    {
      case: "a body that is not JSON",
      body: "email=a",
      message: "Invalid request body. Send a JSON object.",
    },
  ])("answers 400 for $case", async ({ body, message }) => {
    const response = await setUp().initialize(body);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ status: false, message });
  });

  it("answers 400 Duplicate Transaction Reference for a reused reference", async () => {
    const { start, initialize } = setUp();
    await start();
    const response = await initialize({ email: "b@example.com", amount: 100, reference: "FEES-1" });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      status: false,
      message: "Duplicate Transaction Reference",
    });
  });

  it("answers 404 for an unknown reference", async () => {
    const response = await setUp().verify("NEVER-SEEN");
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      status: false,
      message: "Transaction reference not found",
    });
  });

  it("answers a 404 page for an unknown access code", async () => {
    const { checkout } = setUp();
    for (const response of [await checkout("nosuchcode"), await checkout("nosuchcode", "pay")]) {
      expect(response.status).toBe(404);
      expect(await response.text()).toContain("<h1>Checkout not found</h1>");
    }
  });
});

describe("initialize", () => {
  it("accepts the amount as a string, decodes JSON-string metadata and builds the checkout URL", async () => {
    const { start, verify } = setUp();
    const data = await start({ amount: "2500000", metadata: '{"studentId":42}' });
    expect(data.authorization_url).toBe(`http://localhost:4329/checkout/${data.access_code}`);
    const verified = (await (await verify("FEES-1")).json()).data;
    expect(verified).toMatchObject({
      amount: 2_500_000,
      currency: "NGN",
      metadata: { studentId: 42 },
    });
  });

  it("makes up a reference when none is sent", async () => {
    const response = await setUp().initialize({ email: "a@example.com", amount: 5000 });
    expect((await response.json()).data.reference).toMatch(/^[a-z0-9]{10}$/);
  });
});

describe("checkout page", () => {
  it("shows the amount, e-mail and reference and offers three plain forms", async () => {
    const { start, checkout } = setUp();
    const { access_code } = await start({ amount: 123_456_789 });
    const response = await checkout(access_code);
    const html = await response.text();

    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    expect(html).toContain("<title>Paystack sandbox checkout</title>");
    expect(html).toContain("₦1,234,567.89");
    expect(html).toContain("amaka@example.com");
    expect(html).toContain("FEES-1");
    expect(html).toMatch(/no money\s+moves/);
    for (const outcome of ["pay", "decline", "abandon"]) {
      expect(html).toContain(`<form method="post" action="${access_code}/${outcome}">`);
    }
    expect(html).not.toMatch(/<script|<link|src=|https?:\/\//i);
  });

  it("offers only the way back once paid", async () => {
    const { start, checkout } = setUp();
    const { access_code } = await start();
    await checkout(access_code, "pay");
    const html = await (await checkout(access_code)).text();
    expect(html).toContain("This payment is complete.");
    expect(html).not.toContain(`${access_code}/pay`);
  });

  it.each([
    { kobo: 0, currency: "NGN", text: "₦0.00" },
    { kobo: 5, currency: "NGN", text: "₦0.05" },
    { kobo: 100_000, currency: "NGN", text: "₦1,000.00" },
    { kobo: 2_500_050, currency: "NGN", text: "₦25,000.50" },
    { kobo: 100_000_000, currency: "NGN", text: "₦1,000,000.00" },
    { kobo: 150_000, currency: "GHS", text: "GHS 1,500.00" },
  ])("formats $kobo $currency as $text", ({ kobo, currency, text }) => {
    expect(formatAmount(kobo, currency)).toBe(text);
  });
});

describe("checkout outcomes", () => {
  it.each([
    { outcome: "pay", status: "success", webhooks: 1 },
    { outcome: "decline", status: "failed", webhooks: 0 },
    { outcome: "abandon", status: "abandoned", webhooks: 0 },
  ])("$outcome → $status, then 303 back to the callback with its query kept", async (row) => {
    const { start, checkout, statusOf, webhooks } = setUp();
    const { access_code } = await start();
    const response = await checkout(access_code, row.outcome);

    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe(
      "http://localhost:4321/paystack/verify?from=fees&trxref=FEES-1&reference=FEES-1",
    );
    expect(await statusOf()).toBe(row.status);
    expect(webhooks).toHaveLength(row.webhooks);
  });

  it("paying twice sends one webhook", async () => {
    const { start, checkout, webhooks } = setUp();
    const { access_code } = await start();
    expect((await checkout(access_code, "pay")).status).toBe(303);
    expect((await checkout(access_code, "pay")).status).toBe(303);
    expect(webhooks).toHaveLength(1);
  });

  it("lets a declined card try again, but never undoes a payment", async () => {
    const { start, checkout, statusOf } = setUp();
    const { access_code } = await start();
    await checkout(access_code, "decline");
    await checkout(access_code, "pay");
    await checkout(access_code, "decline");
    expect(await statusOf()).toBe("success");
  });

  it("shows a result page when there is no callback URL", async () => {
    const { start, checkout } = setUp();
    const { access_code } = await start({ callback_url: undefined });
    const response = await checkout(access_code, "pay");
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("You can close this tab.");
  });

  it.each([
    { case: "is down", receiver: () => Promise.reject(new TypeError("fetch failed")) },
    { case: "answers 500", receiver: () => new Response("boom", { status: 500 }) },
  ])("still redirects when the webhook receiver $case, and warns", async ({ receiver }) => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const { start, checkout, statusOf } = setUp(receiver);
    const { access_code } = await start();

    expect((await checkout(access_code, "pay")).status).toBe(303);
    expect(await statusOf()).toBe("success");
    await vi.waitFor(() => expect(warn).toHaveBeenCalledWith(expect.stringContaining("FEES-1")));
  });
});

describe("POST /__sandbox/transactions/:reference/pay", () => {
  const pay = (app: ReturnType<typeof setUp>["app"], reference = "FEES-1") =>
    app.request(`/__sandbox/transactions/${reference}/pay`, { method: "POST", headers: AUTH });

  it("marks the transaction paid and reports the webhook, once", async () => {
    const { app, start, statusOf, webhooks } = setUp();
    await start();
    expect((await (await pay(app)).json()).data).toEqual({
      reference: "FEES-1",
      status: "success",
      webhook: "delivered",
    });
    expect((await (await pay(app)).json()).data.webhook).toBe("not sent");
    expect(await statusOf()).toBe("success");
    expect(webhooks).toHaveLength(1);
  });

  it("reports a webhook the receiver refused", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const { app, start } = setUp(() => new Response("no", { status: 401 }));
    await start();
    expect((await (await pay(app)).json()).data.webhook).toBe("failed");
  });

  it("answers 404 for an unknown reference", async () => {
    expect((await pay(setUp().app, "NEVER-SEEN")).status).toBe(404);
  });
});
