import type { PaymentGateway } from "../payments/gateway.ts";
import { createPaystackClient, type PaystackClient } from "./client.ts";
import { readPaystackNotification } from "./notifications.ts";

/** Where Paystack is and the key it knows us by (the same key signs its webhooks). */
export type PaystackSettings = Parameters<typeof createPaystackClient>[0];

/** Paystack as a payment gateway: its client's calls, and its signed webhooks read. */
export function createPaystackGateway(settings: PaystackSettings): PaymentGateway {
  return paystackGateway(createPaystackClient(settings), settings.secretKey);
}

/** Fits a Paystack client (a real one, or a test's stand-in) to the gateway seam. */
export function paystackGateway(client: PaystackClient, secretKey: string): PaymentGateway {
  return {
    name: "paystack",
    label: "Paystack",
    async startCheckout(input) {
      const { authorizationUrl } = await client.initialize(input);
      return { authorizationUrl };
    },
    startOfflineCharge: (input) => client.chargeOffline(input),
    offers: { transactionList: true, refundApi: true },
    // Paystack knows each payment by our reference: it has no other.
    verify: ({ reference }) => client.verify(reference),
    listTransactions: (query) => client.listTransactions(query),
    listRefunds: (query) => client.listRefunds(query),
    refund: (input) => client.refund(input),
    readNotification: (rawBody, headers) =>
      readPaystackNotification(rawBody, headers.get("x-paystack-signature"), secretKey),
  };
}
