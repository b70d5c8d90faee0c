import { describe, expect, it } from "vitest";
import { GatewayError, gatewayOf, type PaymentGateway, type PaymentGateways } from "./gateway.ts";
import { PaystackError } from "../paystack/client.ts";

describe("GatewayError.isRefusal", () => {
  it.each([
    {
      case: "the gateway's own refusal",
      options: { gatewayMessage: "Invalid key" },
      refusal: true,
    },
    { case: "a 4xx without a message", options: { httpStatus: 422 }, refusal: true },
    { case: "a 5xx", options: { httpStatus: 503 }, refusal: false },
    { case: "no answer at all (network, time-out)", options: {}, refusal: false },
  ])("is $refusal for $case", ({ options, refusal }) => {
    expect(new GatewayError("failed", options).isRefusal).toBe(refusal);
  });

  it("holds for Paystack's errors, which are gateway errors carrying Paystack's message", () => {
    const error = new PaystackError("Paystack refused refund", {
      httpStatus: 400,
      paystackMessage: "Transaction has been fully reversed",
    });
    expect(error).toBeInstanceOf(GatewayError);
    expect(error.gatewayMessage).toBe("Transaction has been fully reversed");
    expect(error.paystackMessage).toBe("Transaction has been fully reversed");
    expect(error.isRefusal).toBe(true);
  });
});

describe("gatewayOf", () => {
  const paystack = { name: "paystack", label: "Paystack" } as PaymentGateway;
  const gateways = { paystack } as PaymentGateways;

  it("answers the gateway a payment row names", () => {
    expect(gatewayOf(gateways, { gateway: "paystack" })).toBe(paystack);
  });

  it("refuses a row naming a gateway this deployment is not configured with", () => {
    expect(() => gatewayOf(gateways, { gateway: "remita" })).toThrow(
      "payment gateway remita is not configured",
    );
  });
});
