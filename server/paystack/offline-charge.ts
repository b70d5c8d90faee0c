import { z } from "zod";
import type { PayInstructions } from "../../common/payments/offline-payment.ts";
import type { OfflineChannelChoice } from "../../common/payments/channels.ts";
import { unhandledChannel } from "../../common/payments/channels.ts";
import { GatewayError, type OfflineChargeInput } from "../payments/gateway.ts";

// Paystack's Charge API (`POST /charge`) for the two channels that need no card: a bank account
// to transfer to, or a USSD code to dial. The published OpenAPI spec types the request and a
// completed charge; the pending answers below are the ones Paystack's guides document.

/** The request body: ChargeCreate with `bank_transfer` or `ussd`. */
export function chargeRequestBody(input: OfflineChargeInput) {
  return {
    email: input.email,
    amount: input.amountKobo,
    reference: input.reference,
    metadata: input.metadata,
    ...channelFields(input.channel),
  };
}

function channelFields(channel: OfflineChannelChoice) {
  switch (channel.kind) {
    case "bank_transfer":
      return { bank_transfer: { account_expires_at: channel.expiresAt.toISOString() } };
    case "ussd":
      return { ussd: { type: channel.bank } };
    case "remita":
      // An RRR is Remita's own; nothing is sent to Paystack for one.
      throw new GatewayError("Paystack cannot take a payment by Remita RRR", {
        gatewayMessage: "Paystack takes no Remita RRR",
      });
    default:
      return unhandledChannel(channel);
  }
}

/**
 * `POST /charge`, 200, while the charge waits for the customer: `pending_bank_transfer` with the
 * account, or `pay_offline` with the USSD code. Only what the student needs is demanded.
 */
export const ChargeResponse = z.object({
  status: z.literal(true),
  message: z.string(),
  data: z.object({
    reference: z.string().min(1),
    status: z.string().min(1),
    display_text: z.string().nullish(),
    ussd_code: z.string().min(1).nullish(),
    account_number: z.string().min(1).nullish(),
    account_name: z.string().nullish(),
    bank: z.object({ name: z.string().min(1) }).nullish(),
    account_expires_at: z.string().nullish(),
  }),
});
type ChargeData = z.infer<typeof ChargeResponse>["data"];

/** Paystack's charge statuses that mean "waiting for the customer to pay elsewhere". */
const WAITING = new Set(["pay_offline", "pending_bank_transfer", "pending"]);

/**
 * The instructions for the student, or a reason the answer cannot be used (a charge that failed
 * at once, or one without the account or code the channel needs).
 */
export function readPayInstructions(
  data: ChargeData,
  channel: OfflineChannelChoice,
): PayInstructions | { problem: string } {
  if (!WAITING.has(data.status)) return { problem: `the charge is ${data.status}` };
  switch (channel.kind) {
    case "ussd":
      return data.ussd_code
        ? { channel: "ussd", ussd_code: data.ussd_code }
        : { problem: "no ussd_code" };
    case "bank_transfer": {
      if (!data.account_number || !data.bank) return { problem: "no account_number or bank" };
      const expires = Date.parse(data.account_expires_at ?? "");
      return {
        channel: "bank_transfer",
        bank_name: data.bank.name,
        account_number: data.account_number,
        account_name: data.account_name ?? "",
        // An account without a stated expiry is held to the one we asked for.
        expires_at: new Date(Number.isNaN(expires) ? channel.expiresAt : expires).toISOString(),
      };
    }
    case "remita":
      return { problem: "Paystack takes no Remita RRR" };
    default:
      return unhandledChannel(channel);
  }
}
