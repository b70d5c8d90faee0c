import { describe, expect, it } from "vitest";
import { readPaystackNotification } from "./notifications.ts";
import { signPaystackPayload } from "./signature.ts";

const KEY = "sk_test_notifications_0123456789";
const read = (body: unknown, key = KEY) => {
  const raw = JSON.stringify(body);
  return readPaystackNotification(raw, signPaystackPayload(raw, key), KEY);
};

describe("readPaystackNotification", () => {
  it("believes nothing without a valid signature over the raw body", () => {
    const body = { event: "charge.success", data: { reference: "R-1" } };
    expect(read(body, "sk_test_someone_else")).toBeNull();
    expect(readPaystackNotification(JSON.stringify(body), undefined, KEY)).toBeNull();
  });

  it("reads charge.success as the payment's state in the seam's words", () => {
    const notification = read({
      event: "charge.success",
      data: {
        reference: "R-1",
        status: "success",
        amount: 12_000_000,
        currency: "NGN",
        paid_at: "2025-01-15T09:01:30.000Z",
        channel: "bank_transfer",
        gateway_response: "Approved",
      },
    });
    expect(notification).toEqual({
      kind: "payment",
      transaction: {
        reference: "R-1",
        status: "success",
        amountKobo: 12_000_000,
        currency: "NGN",
        paidAt: new Date("2025-01-15T09:01:30.000Z"),
        channel: "bank_transfer",
        gatewayResponse: "Approved",
      },
    });
  });

  it("reads a refund's outcome, with Paystack's id when it sends one", () => {
    const data = { transaction_reference: "R-2", amount: 500_000, currency: "NGN" };
    expect(read({ event: "refund.processed", data: { ...data, id: 77 } })).toEqual({
      kind: "refund",
      outcome: "processed",
      refundId: 77,
      reference: "R-2",
      amountKobo: 500_000,
      currency: "NGN",
    });
    expect(read({ event: "refund.failed", data })).toMatchObject({
      outcome: "failed",
      refundId: null,
    });
  });

  it("ignores other events, and a charge event missing what crediting reads", () => {
    expect(read({ event: "transfer.success", data: {} })).toEqual({
      kind: "ignored",
      event: "transfer.success",
    });
    expect(read({ event: "charge.success", data: { reference: "R-3" } })).toEqual({
      kind: "ignored",
      event: "charge.success",
    });
    const raw = "not json";
    expect(readPaystackNotification(raw, signPaystackPayload(raw, KEY), KEY)).toEqual({
      kind: "ignored",
      event: null,
    });
  });
});
