import type { UssdBankCode } from "./ussd-banks.ts";

/**
 * The ways a student can pay, as the Payment page offers them. Code that treats them differently
 * switches over the list and ends in `unhandledChannel`, so a channel added here fails the
 * typecheck everywhere it is not yet handled instead of passing as another one.
 */
export const PAYMENT_CHANNELS = ["card", "bank_transfer", "ussd"] as const;
export type PaymentChannel = (typeof PAYMENT_CHANNELS)[number];

/** The ways to pay that need neither a card nor a script: a charge the gateway waits on. */
export const OFFLINE_CHANNELS = [
  "bank_transfer",
  "ussd",
] as const satisfies readonly PaymentChannel[];
export type OfflineChannel = (typeof OFFLINE_CHANNELS)[number];

/**
 * How the student will pay offline: an account valid until `expiresAt`, a bank's USSD code, or a
 * Remita RRR (paid online on Remita's page or at any bank branch).
 */
export type OfflineChannelChoice =
  | { kind: "bank_transfer"; expiresAt: Date }
  | { kind: "ussd"; bank: UssdBankCode }
  | { kind: "remita" };

/** Whether a payment row's channel (the gateway's word once paid) is one we wait on offline. */
export function isOfflineChannel(channel: string | null): channel is OfflineChannel {
  return (OFFLINE_CHANNELS as readonly string[]).includes(channel ?? "");
}

/** The end of an exhaustive switch over channels: unreachable unless the list grew. */
export function unhandledChannel(channel: never): never {
  throw new Error(`payment channel ${String(channel)} is not handled`);
}
