import { describe, expect, it } from "vitest";
import { createRemitaClient, RemitaError, type InvoiceInput } from "./client.ts";
import { finalizeHash, paymentInitHash, statusHash } from "./hash.ts";
import {
  hang,
  networkError,
  scriptedFetch,
  type Answer,
} from "../testing/scripted-fetch.test-kit.ts";

const MERCHANT = "2547916";
const KEY = "remita-test-key-1946";
const BASE_URL = "https://remita.test";
const ECHANNEL = `${BASE_URL}/remita/exapp/api/v1/send/api/echannelsvc`;

const text =
  (body: string, status = 200): Answer =>
  () =>
    new Response(body, { status });
const json = (body: unknown, status = 200) => text(JSON.stringify(body), status);
const jsonp = (body: unknown, status = 200) => text(`jsonp (${JSON.stringify(body)})`, status);

const clientWith = (fetch: typeof globalThis.fetch, extra: { timeoutMs?: number } = {}) =>
  createRemitaClient({
    baseUrl: `${BASE_URL}/`,
    merchantId: MERCHANT,
    apiKey: KEY,
    fetch,
    ...extra,
  });

const invoice: InvoiceInput = {
  serviceTypeId: "4430731",
  orderId: "CCE-20250115-7K3QX9M2PZ4D",
  amountKobo: 2_500_050,
  payerName: "Amaka Obi",
  payerEmail: "amaka@example.com",
  payerPhone: "08030000001",
  description: "School fee 2024/2025",
};

const generated = { statuscode: "025", RRR: "140007752615", status: "Payment Reference generated" };
const pending = {
  amount: 25000.5,
  RRR: "140007752615",
  orderId: invoice.orderId,
  message: "Transaction Pending",
  transactiontime: "2025-01-15 12:00:00 AM",
  status: "021",
};

async function failureOf(promise: Promise<unknown>): Promise<RemitaError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(RemitaError);
  return error as RemitaError;
}

describe("generateRrr (paymentinit)", () => {
  it("sends the SDKs' request: JSON of strings, the hash over the amount's text, no key", async () => {
    const { fetch, calls } = scriptedFetch(jsonp(generated));
    expect(await clientWith(fetch).generateRrr(invoice)).toEqual({
      rrr: "140007752615",
      recovered: false,
    });
    const [call] = calls;
    expect(call!.url).toBe(`${ECHANNEL}/merchant/api/paymentinit`);
    expect(call!.init.method).toBe("POST");
    const hash = paymentInitHash({
      merchantId: MERCHANT,
      serviceTypeId: "4430731",
      orderId: invoice.orderId,
      amount: "25000.50",
      apiKey: KEY,
    });
    const headers = new Headers(call!.init.headers);
    expect(headers.get("authorization")).toBe(
      `remitaConsumerKey=${MERCHANT},remitaConsumerToken=${hash}`,
    );
    expect(headers.get("content-type")).toBe("application/json");
    expect(JSON.parse(String(call!.init.body))).toEqual({
      serviceTypeId: "4430731",
      amount: "25000.50",
      orderId: invoice.orderId,
      payerName: "Amaka Obi",
      payerEmail: "amaka@example.com",
      payerPhone: "08030000001",
      description: "School fee 2024/2025",
    });
    expect(String(call!.init.body)).not.toContain(KEY);
  });

  it("sends whole naira without decimals, a split as line items and the matric number", async () => {
    const { fetch, calls } = scriptedFetch(jsonp(generated));
    await clientWith(fetch).generateRrr({
      ...invoice,
      amountKobo: 12_000_000,
      customFields: [{ name: "Matric Number", value: "NCE/2021/0042" }],
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
    });
    const body = JSON.parse(String(calls[0]!.init.body));
    expect(body.amount).toBe("120000");
    expect(body.customFields).toEqual([
      { name: "Matric Number", value: "NCE/2021/0042", type: "ALL" },
    ]);
    expect(body.lineItems).toEqual([
      {
        lineItemsId: "tsa",
        beneficiaryName: "College TSA",
        beneficiaryAccount: "0360883515",
        bankCode: "000",
        beneficiaryAmount: "115000",
        deductFeeFrom: "1",
      },
      {
        lineItemsId: "ict",
        beneficiaryName: "ICT vendor",
        beneficiaryAccount: "0123456789",
        bankCode: "057",
        beneficiaryAmount: "5000",
        deductFeeFrom: "0",
      },
    ]);
  });

  it("reads the answer as plain JSON too", async () => {
    const { fetch } = scriptedFetch(json(generated));
    expect((await clientWith(fetch).generateRrr(invoice)).rrr).toBe("140007752615");
  });

  it.each([
    ["028", "Duplicate Order Ref"],
    ["055", "RRR Already Exist for the orderId"],
  ])("answers the first RRR when a resent order id is refused as %s", async (code, status) => {
    const { fetch, calls } = scriptedFetch(
      jsonp({ statuscode: code, RRR: "", status }),
      json(pending),
    );
    expect(await clientWith(fetch).generateRrr(invoice)).toEqual({
      rrr: "140007752615",
      recovered: true,
    });
    const hash = statusHash({ key: invoice.orderId, apiKey: KEY, merchantId: MERCHANT });
    expect(calls[1]!.url).toBe(
      `${ECHANNEL}/${MERCHANT}/${invoice.orderId}/${hash}/orderstatus.reg`,
    );
  });

  it("recovers from SystemSpecs' plain-JSON duplicate refusal too", async () => {
    const duplicate = {
      status: "DUPLICATE_REQUEST",
      statusMessage: "Duplicate Order Ref",
      uniqueReference: "",
      responseParams: {},
    };
    const { fetch } = scriptedFetch(json(duplicate, 400), json(pending));
    expect(await clientWith(fetch).generateRrr(invoice)).toEqual({
      rrr: "140007752615",
      recovered: true,
    });
  });

  it("refuses a duplicate whose first invoice was for another amount", async () => {
    const { fetch } = scriptedFetch(
      jsonp({ statuscode: "028", RRR: "", status: "Duplicate Order Ref" }),
      json({ ...pending, amount: 1000 }),
    );
    const error = await failureOf(clientWith(fetch).generateRrr(invoice));
    expect(error.isRefusal).toBe(true);
    expect(error.message).toMatch(/another amount/);
  });

  it.each([
    ["013", "hash of the parameters does not match"],
    ["020", "Invalid User Authentication"],
    ["023", "Service type or Merchant Does not Exist"],
  ])("blames our configuration for %s, not the student", async (code, status) => {
    const { fetch } = scriptedFetch(jsonp({ statuscode: code, RRR: "", status }));
    const error = await failureOf(clientWith(fetch).generateRrr(invoice));
    expect(error).toMatchObject({ code, configurationFault: true, gatewayMessage: status });
    expect(error.isRefusal).toBe(true);
    expect(error.message).toMatch(/REMITA_MERCHANT_ID, REMITA_API_KEY and REMITA_SERVICE_TYPE_ID/);
  });

  it("passes on Remita's refusal of a split, as a refusal", async () => {
    const status = "Total Amount Does not Match with Line Items Amount";
    const { fetch } = scriptedFetch(jsonp({ statuscode: "084", RRR: "", status }));
    const error = await failureOf(clientWith(fetch).generateRrr(invoice));
    expect(error).toMatchObject({ code: "084", gatewayMessage: status, configurationFault: false });
    expect(error.isRefusal).toBe(true);
  });

  it.each([
    ["998 (Remita failed inside)", jsonp({ statuscode: "998", RRR: "", status: "Internal Error" })],
    [
      "025 without an RRR",
      jsonp({ statuscode: "025", RRR: "", status: "Error Processing Request" }),
    ],
    ["a 502 page", text("<html>502 Bad Gateway</html>", 502)],
    ["a 200 that is not JSON", text("<html>maintenance</html>")],
    ["no answer", networkError],
  ])("leaves the outcome unknown after %s: not a refusal", async (_case, answer) => {
    const { fetch, calls } = scriptedFetch(answer);
    const error = await failureOf(clientWith(fetch).generateRrr(invoice));
    expect(error.isRefusal).toBe(false);
    // Never retried: a second invoice could be made.
    expect(calls).toHaveLength(1);
  });

  it("gives up after its time-out", async () => {
    const { fetch } = scriptedFetch(hang);
    const error = await failureOf(clientWith(fetch, { timeoutMs: 20 }).generateRrr(invoice));
    expect(error.message).toBe("Remita did not answer paymentinit within 20 ms");
    expect(error.httpStatus).toBeNull();
  });

  it.each([
    [
      "do not add up to the amount",
      [{ amountKobo: 2_000_000, bearsCharge: true }],
      /add up to 2000000 kobo, not the 2500050/,
    ],
    [
      "have no charge bearer",
      [
        { amountKobo: 2_000_000, bearsCharge: false },
        { amountKobo: 500_050, bearsCharge: false },
      ],
      /0 line items bear/,
    ],
    [
      "have two charge bearers",
      [
        { amountKobo: 2_000_000, bearsCharge: true },
        { amountKobo: 500_050, bearsCharge: true },
      ],
      /2 line items bear/,
    ],
  ])("refuses line items that %s, before asking Remita", async (_case, shares, message) => {
    const { fetch, calls } = scriptedFetch(jsonp(generated));
    const lineItems = shares.map((share, i) => ({
      id: `item${i}`,
      beneficiaryName: "College TSA",
      beneficiaryAccount: "0360883515",
      bankCode: "000",
      ...share,
    }));
    const error = await failureOf(clientWith(fetch).generateRrr({ ...invoice, lineItems }));
    expect(error.message).toMatch(message);
    expect(error.isRefusal).toBe(true);
    expect(calls).toHaveLength(0);
  });
});

describe("statusByRrr and statusByOrderId", () => {
  it("ask status.reg by RRR with the hash in the path and the header", async () => {
    const paid = {
      ...pending,
      message: "Approved",
      paymentDate: "2025-01-15 10:18:54 AM",
      status: "01",
    };
    const { fetch, calls } = scriptedFetch(json(paid));
    expect(await clientWith(fetch).statusByRrr("140007752615")).toEqual({
      code: "01",
      meaning: "paid",
      message: "Approved",
      rrr: "140007752615",
      orderId: invoice.orderId,
      amountKobo: 2_500_050,
      paidAt: new Date("2025-01-15T09:18:54.000Z"),
    });
    const hash = statusHash({ key: "140007752615", apiKey: KEY, merchantId: MERCHANT });
    expect(calls[0]!.url).toBe(`${ECHANNEL}/${MERCHANT}/140007752615/${hash}/status.reg`);
    expect(calls[0]!.init.method).toBe("GET");
    expect(new Headers(calls[0]!.init.headers).get("authorization")).toBe(
      `remitaConsumerKey=${MERCHANT},remitaConsumerToken=${hash}`,
    );
  });

  it("answer an unknown RRR as not found (022), and an unknown order (023)", async () => {
    const invalid = {
      amount: 0,
      RRR: "",
      orderId: "",
      message: "Invalid RRR",
      transactiontime: "",
      status: "022",
    };
    expect(await clientWith(scriptedFetch(json(invalid)).fetch).statusByRrr("1")).toMatchObject({
      meaning: "not-found",
    });
    const unknown = { ...invalid, message: "Invalid Merchant or OrderId", status: "023" };
    expect(await clientWith(scriptedFetch(json(unknown)).fetch).statusByOrderId("X")).toMatchObject(
      {
        meaning: "not-found",
      },
    );
  });

  it("reads a JSONP-wrapped status answer as well", async () => {
    const { fetch } = scriptedFetch(jsonp(pending));
    expect(await clientWith(fetch).statusByRrr("140007752615")).toMatchObject({
      meaning: "pending",
    });
  });

  it("refuses to believe an answer about another RRR or order", async () => {
    const other = { ...pending, RRR: "999999999999" };
    const error = await failureOf(
      clientWith(scriptedFetch(json(other)).fetch).statusByRrr("140007752615"),
    );
    expect(error.message).toMatch(/for 999999999999 when asked for 140007752615/);
    const otherOrder = { ...pending, orderId: "CCE-OTHER" };
    await failureOf(
      clientWith(scriptedFetch(json(otherOrder)).fetch).statusByOrderId(invoice.orderId),
    );
  });

  it("refuses an answer whose amount it cannot read exactly", async () => {
    const { fetch } = scriptedFetch(json({ ...pending, amount: 1.005 }));
    await failureOf(clientWith(fetch).statusByRrr("140007752615"));
  });

  it("blames our configuration for 013 and 020", async () => {
    const wrong = {
      amount: 0,
      RRR: "",
      orderId: "",
      message: "hash of the parameters does not match",
      transactiontime: "",
      status: "013",
    };
    const error = await failureOf(clientWith(scriptedFetch(json(wrong)).fetch).statusByRrr("1"));
    expect(error.configurationFault).toBe(true);
  });

  it("asks again after no answer, a 5xx or 997–999, then gives up", async () => {
    const internal = { ...pending, status: "999", message: "Unknown" };
    const { fetch, calls } = scriptedFetch(networkError, json(internal), json(pending));
    expect(await clientWith(fetch).statusByRrr("140007752615")).toMatchObject({
      meaning: "pending",
    });
    expect(calls).toHaveLength(3);

    const failing = scriptedFetch(text("busy", 503));
    const error = await failureOf(clientWith(failing.fetch).statusByRrr("140007752615"));
    expect(error.httpStatus).toBe(503);
    expect(failing.calls).toHaveLength(3);
  });

  it("does not ask again after an answer it cannot read", async () => {
    const { fetch, calls } = scriptedFetch(json({ unexpected: true }));
    await failureOf(clientWith(fetch).statusByRrr("140007752615"));
    expect(calls).toHaveLength(1);
  });
});

describe("cancel (deactivate.json)", () => {
  it("posts the RRR, the merchant and the status hash, with no Authorization header", async () => {
    const { fetch, calls } = scriptedFetch(json({ statuscode: "00", status: "Successful" }));
    expect(await clientWith(fetch).cancel("140007752615")).toBe("cancelled");
    expect(calls[0]!.url).toBe(`${ECHANNEL}/v2/api/deactivate.json`);
    expect(JSON.parse(String(calls[0]!.init.body))).toEqual({
      rrr: "140007752615",
      merchantId: MERCHANT,
      hash: statusHash({ key: "140007752615", apiKey: KEY, merchantId: MERCHANT }),
    });
    expect(new Headers(calls[0]!.init.headers).get("authorization")).toBeNull();
  });

  it("says when the RRR was paid already (027), and refuses with anything else", async () => {
    const paid = scriptedFetch(
      json({ statuscode: "027", status: "Transaction Already Processed" }),
    );
    expect(await clientWith(paid.fetch).cancel("140007752615")).toBe("already-paid");
    const unknown = scriptedFetch(json({ statuscode: "022", status: "Invalid RRR" }));
    const error = await failureOf(clientWith(unknown.fetch).cancel("140007752615"));
    expect(error).toMatchObject({ code: "022", gatewayMessage: "Invalid RRR" });
  });
});

describe("payOnlineForm", () => {
  it("is the finalize.reg form SystemSpecs' samples post", () => {
    const form = clientWith(scriptedFetch().fetch).payOnlineForm(
      "140007752615",
      "https://portal.example/remita/verify",
    );
    expect(form).toEqual({
      action: `${BASE_URL}/remita/ecomm/finalize.reg`,
      fields: {
        merchantId: MERCHANT,
        hash: finalizeHash({ merchantId: MERCHANT, rrr: "140007752615", apiKey: KEY }),
        rrr: "140007752615",
        responseurl: "https://portal.example/remita/verify",
      },
    });
  });
});
