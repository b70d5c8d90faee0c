/**
 * The gateways a payment can go through, by the name each payment row keeps (`payments.gateway`)
 * and the word students and staff know it by. Shared by the API, which holds one implementation
 * of each (server/payments/gateway.ts), and the pages, which offer their ways to pay.
 */
export const GATEWAYS = ["paystack", "remita"] as const;
export type GatewayName = (typeof GATEWAYS)[number];

export const GATEWAY_LABELS = {
  paystack: "Paystack",
  remita: "Remita",
} as const satisfies Record<GatewayName, string>;

/** The word for a gateway a row names; an unknown name (none today) is shown as stored. */
export const gatewayLabel = (name: string): string => GATEWAY_LABELS[name as GatewayName] ?? name;
