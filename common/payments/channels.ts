import type { UssdBankCode } from "./ussd-banks.ts";
import type { GatewayName } from "./gateway-names.ts";

/**
 * The ways a student can pay, as the Payment page offers them. Code that treats them differently
 * switches over the list and ends in `unhandledChannel`, so a channel added here fails the
 * typecheck everywhere it is not yet handled instead of passing as another one.
 */
export const PAYMENT_CHANNELS = ["card", "bank_transfer", "ussd", "remita"] as const;
export type PaymentChannel = (typeof PAYMENT_CHANNELS)[number];

/**
 * The ways to pay that need neither a card nor a script: a charge the gateway waits on. A Remita
 * RRR is one: it is paid later, online or at any bank branch, and credited when Remita says so.
 */
export const OFFLINE_CHANNELS = [
  "bank_transfer",
  "ussd",
  "remita",
] as const satisfies readonly PaymentChannel[];
export type OfflineChannel = (typeof OFFLINE_CHANNELS)[number];

/**
 * How the student will pay offline: an account valid until `expiresAt`, a bank's USSD code, or a
 * Remita RRR (payable online or at a bank).
 */
export type OfflineChannelChoice =
  | { kind: "bank_transfer"; expiresAt: Date }
  | { kind: "ussd"; bank: UssdBankCode }
  | { kind: "remita" };

/**
 * The gateway that takes each way to pay: the one place that says so. A payment started on a
 * channel is recorded against this gateway, and a fee allowed only some gateways is offered only
 * their channels.
 */
export const CHANNEL_GATEWAYS = {
  card: "paystack",
  bank_transfer: "paystack",
  ussd: "paystack",
  remita: "remita",
} as const satisfies Record<PaymentChannel, GatewayName>;

export const gatewayOfChannel = (channel: PaymentChannel): GatewayName => CHANNEL_GATEWAYS[channel];

/** The ways to pay through any of `gateways`, in the Payment page's order. */
export const channelsThrough = (gateways: readonly string[]): PaymentChannel[] =>
  PAYMENT_CHANNELS.filter((channel) => gateways.includes(CHANNEL_GATEWAYS[channel]));

/** Whether a payment row's channel (the gateway's word once paid) is one we wait on offline. */
export function isOfflineChannel(channel: string | null): channel is OfflineChannel {
  return (OFFLINE_CHANNELS as readonly string[]).includes(channel ?? "");
}

/** The end of an exhaustive switch over channels: unreachable unless the list grew. */
export function unhandledChannel(channel: never): never {
  throw new Error(`payment channel ${String(channel)} is not handled`);
}
