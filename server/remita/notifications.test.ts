import { describe, expect, it } from "vitest";
import { MAX_CLAIMS, readRemitaNotification } from "./notifications.ts";

// [PK]'s sample element (a third-party test of a Remita provider), as Remita posts it: an array.
const sample = {
  rrr: "RRR1",
  channel: "CARDPAYMENT",
  billerName: "Test Biller",
  amount: 3500,
  transactiondate: "2021-01-20 00:00:00",
  debitdate: "2021-01-20 11:17:03",
  bank: "232",
  branch: "",
  serviceTypeId: "SVC1",
  orderRef: "ref1",
  orderId: "ref1",
  payerName: "John Doe",
  payerPhoneNumber: "07043049875",
  payerEmail: "test@test.com",
  type: "PY",
};

describe("readRemitaNotification", () => {
  it("reads each payment of the array as a claim: our reference and its RRR, nothing else", () => {
    const body = JSON.stringify([
      sample,
      { ...sample, rrr: "RRR2", orderRef: "ref2", orderId: "ref2" },
    ]);
    expect(readRemitaNotification(body)).toEqual({
      kind: "claims",
      payments: [
        { reference: "ref1", gatewayReference: "RRR1" },
        { reference: "ref2", gatewayReference: "RRR2" },
      ],
    });
  });

  it("believes nothing of the amount or channel it names: a claim carries neither", () => {
    const notification = readRemitaNotification(JSON.stringify([{ ...sample, amount: 99999999 }]));
    expect(JSON.stringify(notification)).not.toContain("99999999");
  });

  it("falls back on orderId without orderRef, and on the RRR alone", () => {
    const { orderRef: _ignored, ...withoutOrderRef } = sample;
    expect(readRemitaNotification(JSON.stringify([withoutOrderRef]))).toEqual({
      kind: "claims",
      payments: [{ reference: "ref1", gatewayReference: "RRR1" }],
    });
    expect(readRemitaNotification(JSON.stringify([{ rrr: 140007752615 }]))).toEqual({
      kind: "claims",
      payments: [{ reference: "", gatewayReference: "140007752615" }],
    });
  });

  it("reads one payment sent without its array", () => {
    expect(readRemitaNotification(JSON.stringify(sample))).toMatchObject({ kind: "claims" });
  });

  it("names a payment repeated in one notification once", () => {
    const body = JSON.stringify([sample, sample, sample]);
    expect(readRemitaNotification(body)).toMatchObject({ payments: [{ reference: "ref1" }] });
  });

  it(`takes at most ${MAX_CLAIMS} payments from one notification`, () => {
    const many = Array.from({ length: 500 }, (_, i) => ({
      ...sample,
      rrr: `R${i}`,
      orderRef: `r${i}`,
    }));
    const notification = readRemitaNotification(JSON.stringify(many));
    expect(notification.kind === "claims" && notification.payments.length).toBe(MAX_CLAIMS);
  });

  it.each([
    ["not JSON", "rrr=RRR1&orderRef=ref1"],
    ["an empty body", ""],
    ["an empty array", "[]"],
    ["null", "null"],
    ["elements naming no payment", JSON.stringify([{ channel: "CARDPAYMENT" }, 5, null, "x"])],
    ["a reference too long to be ours", JSON.stringify([{ orderRef: "x".repeat(101) }])],
    ["fields of the wrong kind", JSON.stringify([{ rrr: { $ne: "" }, orderRef: ["ref1"] }])],
  ])("ignores %s, never answering null or throwing", (_case, body) => {
    expect(readRemitaNotification(body)).toEqual({ kind: "ignored", event: null });
  });
});
