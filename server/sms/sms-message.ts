/**
 * One text message to one phone. `to` is the number in international form (+234…), as the
 * provider wants it; `text` is what the student reads, one 160-character GSM-7 segment where it can
 * be (server/sms/gsm7.ts).
 */
export type SmsMessage = {
  to: string;
  text: string;
};

/** What the provider answered for one accepted message. */
export type SmsReceipt = {
  /** The provider's id for the message, for its delivery reports and for support. */
  providerMessageId: string;
  /** The cost as the provider reports it, e.g. "NGN 2.2000"; absent where it reports none. */
  cost?: string;
};

/**
 * Sends text messages somewhere: Africa's Talking, or the local outbox in development and tests.
 * A refusal the provider will repeat however often it is asked (a number it cannot reach, a
 * blacklisted one) rejects with `SmsRefused`, which the queue does not retry; anything else
 * (network down, provider busy) rejects with a plain Error and is tried again.
 */
export type SmsSender = {
  send(message: SmsMessage): Promise<SmsReceipt>;
  /** Where messages go, for start-up logs, e.g. "Africa's Talking (username college)". Never a key. */
  describe(): string;
};

/** The provider will not deliver this message, however often it is asked. */
export class SmsRefused extends Error {
  override name = "SmsRefused";
}
