import { describe, expect, it } from "vitest";
import { useSandboxDatabase } from "../testing/sandbox-database.test-kit.ts";
import { finalizeHash, paymentInitHash, remitaAuthorization, statusHash } from "./hash.ts";
import { ECHANNEL, remitaSandboxFor, TEST_REMITA } from "./sandbox.test-kit.ts";

// Every sandbox of a test keeps its invoices in this database (decision 188).
const sandboxDatabase = useSandboxDatabase();
const setUp = (options?: Parameters<typeof remitaSandboxFor>[1]) =>
  remitaSandboxFor(sandboxDatabase.db, options);
type Sandbox = ReturnType<typeof setUp>;

const MINUTE = 60_000;

/** The form a portal page posts to finalize.reg, with `fields` over a valid one. */
function finalize(sandbox: Sandbox, rrr: string, fields: Record<string, string> = {}) {
  const form = new URLSearchParams({
    merchantId: TEST_REMITA.merchantId,
    hash: finalizeHash({ merchantId: TEST_REMITA.merchantId, rrr, apiKey: TEST_REMITA.apiKey }),
    rrr,
    responseurl: "http://localhost:4321/remita/verify?from=fees",
    ...fields,
  });
  return sandbox.app.request("/remita/ecomm/finalize.reg", {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: form.toString(),
  });
}

const choose = (sandbox: Sandbox, rrr: string, outcome: string) =>
  sandbox.app.request(`/remita/ecomm/finalize/${rrr}/${outcome}`, { method: "POST" });

describe("paymentinit", () => {
  it("answers JSONP with 025 and a new 12-digit RRR", async () => {
    const sandbox = setUp();
    const response = await sandbox.paymentInit();
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).toMatch(
      /^jsonp \(\{"statuscode":"025","RRR":"[1-9]\d{11}","status":"Payment Reference generated"\}\)$/,
    );
  });

  it.each([
    ["no Authorization header", { authorization: null }, "020"],
    ["a header in another form", { authorization: "Bearer sandbox-test-key" }, "020"],
    ["another merchant", { authorization: remitaAuthorization("1111111", "0".repeat(128)) }, "023"],
    [
      "a hash made with another key",
      { authorization: remitaAuthorization(TEST_REMITA.merchantId, "0".repeat(128)) },
      "013",
    ],
  ])("refuses %s", async (_case, options, code) => {
    const sandbox = setUp();
    const answer = JSON.parse((await (await sandbox.paymentInit({}, options)).text()).slice(7, -1));
    expect(answer).toMatchObject({ statuscode: code, RRR: "" });
    expect((await sandbox.status("ORD-1", { byOrder: true })).status).toBe("023");
  });

  it("refuses a hash over other text for the same amount (25000.5 hashed as 25000.50)", async () => {
    const sandbox = setUp();
    // Hash "25000.50" but send "25000.5": Remita hashes the text it is sent.
    const hash = paymentInitHash({
      merchantId: TEST_REMITA.merchantId,
      serviceTypeId: TEST_REMITA.serviceTypeId,
      orderId: "ORD-2",
      amount: "25000.50",
      apiKey: TEST_REMITA.apiKey,
    });
    const response = await sandbox.paymentInit(
      { orderId: "ORD-2", amount: "25000.5" },
      { authorization: remitaAuthorization(TEST_REMITA.merchantId, hash) },
    );
    expect(JSON.parse((await response.text()).slice(7, -1)).statuscode).toBe("013");
  });

  it("refuses a service type the merchant does not have (023)", async () => {
    const sandbox = setUp();
    expect((await sandbox.generate({ serviceTypeId: "999" })).statuscode).toBe("023");
  });

  it.each([
    ["no amount", { amount: undefined }],
    ["an amount with three decimals", { amount: "25000.505" }],
    ["a zero amount", { amount: "0" }],
    ["no payer e-mail", { payerEmail: "" }],
    ["no order id", { orderId: "" }],
  ])("refuses %s (022)", async (_case, body) => {
    const sandbox = setUp();
    expect((await sandbox.generate(body)).statuscode).toBe("022");
  });

  it("refuses a repeated order id (028), keeping the first invoice as it was", async () => {
    const sandbox = setUp();
    const first = await sandbox.generate();
    const again = await sandbox.generate({ amount: "1000" });
    expect(again).toEqual({ statuscode: "028", RRR: "", status: "Duplicate Order Ref" });
    expect(await sandbox.status("ORD-1", { byOrder: true })).toMatchObject({
      RRR: first.RRR,
      amount: 25000.5,
    });
  });

  const share = (id: string, amount: string, deductFeeFrom = "0", extra = {}) => ({
    lineItemsId: id,
    beneficiaryName: `Beneficiary ${id}`,
    beneficiaryAccount: "0360883515",
    bankCode: "057",
    beneficiaryAmount: amount,
    deductFeeFrom,
    ...extra,
  });

  it.each([
    ["that do not add up to the amount", [share("a", "20000", "1"), share("b", "5000")], "084"],
    ["with two charge bearers", [share("a", "20000.50", "1"), share("b", "5000", "1")], "087"],
    ["with no charge bearer", [share("a", "20000.50"), share("b", "5000")], "088"],
    ["sharing an id", [share("a", "20000.50", "1"), share("a", "5000")], "037"],
    [
      "to an account that is not 10 digits",
      [share("a", "20000.50", "1", { beneficiaryAccount: "12345" }), share("b", "5000")],
      "057",
    ],
  ])("refuses line items %s, as Remita does", async (_case, lineItems, code) => {
    const sandbox = setUp();
    const answer = await sandbox.generate({ lineItems });
    expect(answer).toMatchObject({ statuscode: code, RRR: "" });
  });

  it("keeps a split that adds up with one charge bearer", async () => {
    const sandbox = setUp();
    const lineItems = [share("tsa", "20000.50", "1"), share("ict", "5000")];
    const { statuscode, RRR } = await sandbox.generate({ lineItems });
    expect(statuscode).toBe("025");
    const held = await sandbox.app.request(`/__sandbox/rrr/${RRR}`, {
      headers: { Authorization: `Bearer ${TEST_REMITA.apiKey}` },
    });
    const { invoice } = await held.json();
    expect(invoice.lineItems).toEqual([
      expect.objectContaining({ lineItemsId: "tsa", amountKobo: 2_000_050, deductFeeFrom: "1" }),
      expect.objectContaining({ lineItemsId: "ict", amountKobo: 500_000, deductFeeFrom: "0" }),
    ]);
  });
});

describe("status.reg and orderstatus.reg", () => {
  it("answer a new invoice as pending (021), by RRR and by order id, on both paths", async () => {
    const sandbox = setUp();
    const { RRR } = await sandbox.generate();
    const expected = {
      amount: 25000.5,
      RRR,
      orderId: "ORD-1",
      message: "Transaction Pending",
      transactiontime: "2025-01-15 12:00:00 AM",
      status: "021",
    };
    expect(await sandbox.status(RRR)).toEqual(expected);
    expect(await sandbox.status("ORD-1", { byOrder: true })).toEqual(expected);
    expect(await sandbox.status(RRR, { legacy: true })).toEqual(expected);
    expect(await sandbox.status("ORD-1", { byOrder: true, legacy: true })).toEqual(expected);
  });

  it("answer 022 for an RRR it does not know, 023 for an order", async () => {
    const sandbox = setUp();
    expect(await sandbox.status("123456789012")).toMatchObject({ status: "022", RRR: "" });
    expect(await sandbox.status("ORD-404", { byOrder: true })).toMatchObject({ status: "023" });
  });

  it("refuse a wrong hash (013) and a header that does not match the path (020), but need no header", async () => {
    const sandbox = setUp();
    const { RRR } = await sandbox.generate();
    const path = (hash: string) =>
      `${ECHANNEL}/${TEST_REMITA.merchantId}/${RRR}/${hash}/status.reg`;
    const wrong = await sandbox.app.request(path("0".repeat(128)));
    expect((await wrong.json()).status).toBe("013");
    const hash = statusHash({
      key: RRR,
      apiKey: TEST_REMITA.apiKey,
      merchantId: TEST_REMITA.merchantId,
    });
    const mismatched = await sandbox.app.request(path(hash), {
      headers: { Authorization: remitaAuthorization(TEST_REMITA.merchantId, "f".repeat(128)) },
    });
    expect((await mismatched.json()).status).toBe("020");
    const bare = await sandbox.app.request(path(hash));
    expect((await bare.json()).status).toBe("021");
  });
});

describe("deactivate.json", () => {
  const deactivate = (sandbox: Sandbox, rrr: string, hash?: string) =>
    sandbox.app.request(`${ECHANNEL}/v2/api/deactivate.json`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        rrr,
        merchantId: TEST_REMITA.merchantId,
        hash:
          hash ??
          statusHash({ key: rrr, apiKey: TEST_REMITA.apiKey, merchantId: TEST_REMITA.merchantId }),
      }),
    });

  it("cancels an unpaid RRR, which then cannot be paid", async () => {
    const sandbox = setUp();
    const { RRR } = await sandbox.generate();
    expect(await (await deactivate(sandbox, RRR)).json()).toEqual({
      statuscode: "00",
      status: "Successful",
    });
    expect((await sandbox.status(RRR)).status).toBe("02");
    const paid = await sandbox.hook(`/__sandbox/rrr/${RRR}/pay`, {});
    expect(await paid.json()).toMatchObject({ state: "not payable" });
    expect(sandbox.notifications).toHaveLength(0);
  });

  it("refuses a paid RRR (027), an unknown one (022) and a wrong hash (013)", async () => {
    const sandbox = setUp();
    const { RRR } = await sandbox.generate();
    await sandbox.hook(`/__sandbox/rrr/${RRR}/pay`, { notify: false });
    expect((await (await deactivate(sandbox, RRR)).json()).statuscode).toBe("027");
    expect((await (await deactivate(sandbox, "123456789012")).json()).statuscode).toBe("022");
    expect((await (await deactivate(sandbox, RRR, "0".repeat(128))).json()).statuscode).toBe("013");
  });
});

describe("finalize.reg: Remita's payment page", () => {
  it("shows the invoice with Pay, Decline and Abandon as plain forms", async () => {
    const sandbox = setUp();
    const { RRR } = await sandbox.generate();
    const response = await finalize(sandbox, RRR);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain(RRR.replace(/(\d{4})(?=\d)/g, "$1 "));
    expect(html).toContain("₦25,000.50");
    for (const outcome of ["pay", "decline", "abandon"])
      expect(html).toContain(`<form method="post" action="finalize/${RRR}/${outcome}">`);
    expect(html).not.toContain("<script");
  });

  it.each([
    ["a hash made with another key", { hash: "0".repeat(128) }, 400],
    ["another merchant", { merchantId: "1111111" }, 404],
    ["a javascript: response URL", { responseurl: "javascript:alert(1)" }, 400],
  ])("refuses %s", async (_case, fields, status) => {
    const sandbox = setUp();
    const { RRR } = await sandbox.generate();
    const response = await finalize(sandbox, RRR, fields);
    expect(response.status).toBe(status);
    expect(await response.text()).not.toContain("finalize/");
  });

  it("refuses an RRR it does not know", async () => {
    const sandbox = setUp();
    expect((await finalize(sandbox, "123456789012")).status).toBe(404);
  });

  it("Pay: paid (00), Remita's notification sent, the browser sent back with RRR and orderID", async () => {
    const sandbox = setUp();
    const { RRR } = await sandbox.generate();
    await finalize(sandbox, RRR);
    const response = await choose(sandbox, RRR, "pay");
    expect(response.status).toBe(303);
    const back = new URL(response.headers.get("location")!);
    expect(`${back.origin}${back.pathname}`).toBe("http://localhost:4321/remita/verify");
    expect(Object.fromEntries(back.searchParams)).toEqual({ from: "fees", RRR, orderID: "ORD-1" });
    expect(await sandbox.status(RRR)).toMatchObject({
      status: "00",
      message: "Transaction Completed Successfully",
      paymentDate: "2025-01-15 10:00:00 AM",
    });
    expect(sandbox.notifications).toHaveLength(1);
    const [notification] = sandbox.notifications;
    expect(notification!.url).toBe("http://api.test/remita/webhook");
    expect(JSON.parse(notification!.body)).toEqual([
      expect.objectContaining({
        rrr: RRR,
        orderRef: "ORD-1",
        channel: "CARDPAYMENT",
        amount: 25000.5,
      }),
    ]);
    // Unsigned: Remita documents no signature.
    expect([...notification!.headers.keys()]).toEqual(["content-type"]);
  });

  it("Pay twice: paid once, notified once", async () => {
    const sandbox = setUp();
    const { RRR } = await sandbox.generate();
    await finalize(sandbox, RRR);
    await choose(sandbox, RRR, "pay");
    await choose(sandbox, RRR, "pay");
    expect(sandbox.notifications).toHaveLength(1);
  });

  it("Decline: failed (02), no notification, and the RRR can still be paid at a bank", async () => {
    const sandbox = setUp();
    const { RRR } = await sandbox.generate();
    await finalize(sandbox, RRR);
    const response = await choose(sandbox, RRR, "decline");
    expect(response.status).toBe(303);
    expect(new URL(response.headers.get("location")!).searchParams.get("RRR")).toBe(RRR);
    expect((await sandbox.status(RRR)).status).toBe("02");
    expect(sandbox.notifications).toHaveLength(0);
    await sandbox.hook(`/__sandbox/rrr/${RRR}/pay`, {});
    expect((await sandbox.status(RRR)).status).toBe("01");
  });

  it("Abandon: still pending (021), no notification, back to the portal", async () => {
    const sandbox = setUp();
    const { RRR } = await sandbox.generate();
    await finalize(sandbox, RRR);
    const response = await choose(sandbox, RRR, "abandon");
    expect(response.status).toBe(303);
    expect((await sandbox.status(RRR)).status).toBe("021");
    expect(sandbox.notifications).toHaveLength(0);
  });

  it("sends the browser back even when the portal refuses the notification", async () => {
    const sandbox = setUp({ receiver: () => new Response("down", { status: 503 }) });
    const { RRR } = await sandbox.generate();
    await finalize(sandbox, RRR);
    expect((await choose(sandbox, RRR, "pay")).status).toBe(303);
    expect((await sandbox.status(RRR)).status).toBe("00");
  });
});

describe("a bank's counter: /simulate/bank/:rrr", () => {
  const payAtBank = (sandbox: Sandbox, rrr: string, form: Record<string, string>) =>
    sandbox.app.request(`/simulate/bank/${rrr}`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(form).toString(),
    });

  it("shows a form with the delay and whether to notify, labelled, without scripts", async () => {
    const sandbox = setUp();
    const { RRR } = await sandbox.generate();
    const html = await (await sandbox.app.request(`/simulate/bank/${RRR}`)).text();
    expect(html).toContain(`<form method="post" action="${RRR}">`);
    expect(html).toContain('<label for="minutes">');
    expect(html).toContain('name="notify"');
    expect(html).not.toContain("<script");
    expect((await sandbox.app.request("/simulate/bank/123456789012")).status).toBe(404);
  });

  it("pays now (01 Approved) and notifies the portal", async () => {
    const sandbox = setUp();
    const { RRR } = await sandbox.generate();
    const response = await payAtBank(sandbox, RRR, { minutes: "0", notify: "1" });
    expect(await response.text()).toContain("Remita&#39;s notification was delivered");
    expect(await sandbox.status(RRR)).toMatchObject({ status: "01", message: "Approved" });
    expect(JSON.parse(sandbox.notifications[0]!.body)[0]).toMatchObject({
      channel: "BRANCH",
      rrr: RRR,
    });
  });

  it("makes the payment arrive after the delay chosen, at the first request after it", async () => {
    const sandbox = setUp();
    const { RRR } = await sandbox.generate();
    await payAtBank(sandbox, RRR, { minutes: "4320", notify: "1" });
    sandbox.advance(4319 * MINUTE);
    expect((await sandbox.status(RRR)).status).toBe("021");
    expect(sandbox.notifications).toHaveLength(0);
    sandbox.advance(2 * MINUTE);
    // Any request settles what is due first: here, the status call itself.
    expect(await sandbox.status(RRR)).toMatchObject({
      status: "01",
      paymentDate: "2025-01-18 10:00:00 AM",
    });
    expect(sandbox.notifications).toHaveLength(1);
  });

  it("loses the notification when told to, and pays all the same", async () => {
    const sandbox = setUp();
    const { RRR } = await sandbox.generate();
    await payAtBank(sandbox, RRR, { minutes: "10" });
    sandbox.advance(11 * MINUTE);
    expect((await sandbox.status(RRR)).status).toBe("01");
    expect(sandbox.notifications).toHaveLength(0);
  });

  it("refuses a delay that is not whole minutes", async () => {
    const sandbox = setUp();
    const { RRR } = await sandbox.generate();
    expect((await payAtBank(sandbox, RRR, { minutes: "soon" })).status).toBe(400);
    expect((await sandbox.status(RRR)).status).toBe("021");
  });
});

describe("the test hook POST /__sandbox/rrr/:rrr/pay", () => {
  it("needs the API key", async () => {
    const sandbox = setUp();
    const { RRR } = await sandbox.generate();
    expect((await sandbox.hook(`/__sandbox/rrr/${RRR}/pay`, {}, "wrong")).status).toBe(401);
    expect((await sandbox.status(RRR)).status).toBe("021");
  });

  it("pays at a branch and notifies by default, once", async () => {
    const sandbox = setUp();
    const { RRR } = await sandbox.generate();
    const first = await (await sandbox.hook(`/__sandbox/rrr/${RRR}/pay`, {})).json();
    expect(first).toEqual({ status: "ok", rrr: RRR, state: "paid", notification: "delivered" });
    const second = await (await sandbox.hook(`/__sandbox/rrr/${RRR}/pay`, {})).json();
    expect(second).toMatchObject({ state: "not payable", notification: "not sent" });
    expect(sandbox.notifications).toHaveLength(1);
  });

  it("pays by card without a notification, or later", async () => {
    const sandbox = setUp();
    const card = (await sandbox.generate()).RRR;
    expect(
      await (
        await sandbox.hook(`/__sandbox/rrr/${card}/pay`, { channel: "CARDPAYMENT", notify: false })
      ).json(),
    ).toMatchObject({ state: "paid", notification: "not sent" });
    expect((await sandbox.status(card)).status).toBe("00");

    const later = (await sandbox.generate({ orderId: "ORD-2" })).RRR;
    expect(
      await (await sandbox.hook(`/__sandbox/rrr/${later}/pay`, { delayMs: 5 * MINUTE })).json(),
    ).toMatchObject({ state: "scheduled", arrivesAt: "2025-01-15T09:05:00.000Z" });
    sandbox.advance(5 * MINUTE);
    expect((await sandbox.status(later)).status).toBe("01");
    expect(sandbox.notifications).toHaveLength(1);
  });

  it.each([[{ channel: "CASH" }], [{ delayMs: -1 }], [{ notify: "yes" }]])(
    "refuses %j",
    async (body) => {
      const sandbox = setUp();
      const { RRR } = await sandbox.generate();
      expect((await sandbox.hook(`/__sandbox/rrr/${RRR}/pay`, body)).status).toBe(400);
    },
  );
});

describe("a bank payment due later, across a restart", () => {
  it("arrives once through another instance on the same database, which notifies it", async () => {
    const first = setUp();
    const { RRR } = await first.generate();
    await first.hook(`/__sandbox/rrr/${RRR}/pay`, { delayMs: 60 * MINUTE });
    // The first instance is gone; a new one starts on the same database, later.
    const second = setUp();
    second.advance(61 * MINUTE);
    expect((await second.status(RRR)).status).toBe("01");
    expect(second.notifications).toHaveLength(1);
    expect(first.notifications).toHaveLength(0);
    expect((await first.status(RRR)).status).toBe("01");
    expect(first.notifications).toHaveLength(0);
  });

  it("arrives on the timer with no one asking, when the sandbox has one", async () => {
    const stop = new AbortController();
    const sandbox = setUp({ settleEveryMs: 10, signal: stop.signal });
    try {
      const { RRR } = await sandbox.generate();
      await sandbox.hook(`/__sandbox/rrr/${RRR}/pay`, { delayMs: MINUTE });
      sandbox.advance(MINUTE);
      await expect.poll(() => sandbox.notifications.length, { timeout: 2_000 }).toBe(1);
    } finally {
      stop.abort();
    }
  });
});

describe("the fault switches", () => {
  it("need the API key and shares that add up to 1 at most", async () => {
    const sandbox = setUp();
    expect(
      (await sandbox.hook("/__sandbox/faults", { errorShare: 1, timeoutShare: 0 }, "x")).status,
    ).toBe(401);
    expect(
      (await sandbox.hook("/__sandbox/faults", { errorShare: 0.7, timeoutShare: 0.7 })).status,
    ).toBe(400);
  });

  it("answer 503 before doing anything", async () => {
    const sandbox = setUp();
    await sandbox.hook("/__sandbox/faults", { errorShare: 1, timeoutShare: 0 });
    expect((await sandbox.paymentInit()).status).toBe(503);
    await sandbox.hook("/__sandbox/faults", { errorShare: 0, timeoutShare: 0 });
    expect((await sandbox.generate()).statuscode).toBe("025");
  });

  it("hold an answer back after doing the work; a resent paymentinit then recovers the RRR", async () => {
    const sandbox = setUp({ hangMs: 5_000 });
    await sandbox.hook("/__sandbox/faults", { errorShare: 0, timeoutShare: 1 });
    const invoice = {
      serviceTypeId: TEST_REMITA.serviceTypeId,
      orderId: "ORD-LOST",
      amountKobo: 2_500_050,
      payerName: "Amaka Obi",
      payerEmail: "amaka@example.com",
      payerPhone: null,
      description: "School fee",
    };
    const lost = await sandbox
      .client(100)
      .generateRrr(invoice)
      .catch((error: Error) => error);
    expect(lost).toBeInstanceOf(Error);
    expect((lost as Error).message).toMatch(/did not answer paymentinit within 100 ms/);
    await sandbox.hook("/__sandbox/faults", { errorShare: 0, timeoutShare: 0 });
    const resent = await sandbox.client().generateRrr(invoice);
    expect(resent.recovered).toBe(true);
    expect((await sandbox.status("ORD-LOST", { byOrder: true })).RRR).toBe(resent.rrr);
  });

  it("fail the share asked for", async () => {
    const draws = [0.1, 0.5, 0.9];
    const sandbox = setUp({ random: () => draws.shift() ?? 0.9 });
    await sandbox.hook("/__sandbox/faults", { errorShare: 0.3, timeoutShare: 0 });
    const statuses = [];
    for (const orderId of ["A", "B", "C"])
      statuses.push((await sandbox.paymentInit({ orderId })).status);
    expect(statuses).toEqual([503, 200, 200]);
  });

  it("leave the pages and test hooks alone", async () => {
    const sandbox = setUp();
    const { RRR } = await sandbox.generate();
    await sandbox.hook("/__sandbox/faults", { errorShare: 1, timeoutShare: 0 });
    expect((await sandbox.app.request(`/simulate/bank/${RRR}`)).status).toBe(200);
    expect((await sandbox.hook(`/__sandbox/rrr/${RRR}/pay`, {})).status).toBe(200);
  });
});
