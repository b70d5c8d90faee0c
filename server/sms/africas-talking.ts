import { z } from "zod";
import { MASK, scrubText } from "../../common/log/scrub.ts";
import { SmsRefused, type SmsSender } from "./sms-message.ts";

/** Africa's Talking's live API, and its own sandbox (username "sandbox", messages to its simulator). */
export const AFRICAS_TALKING_LIVE_URL = "https://api.africastalking.com";
export const AFRICAS_TALKING_SANDBOX_URL = "https://api.sandbox.africastalking.com";

// As checked against Africa's Talking's "Send Bulk SMS" documentation (decision 199):
// - It also documents a JSON endpoint, /version1/messaging/bulk (`phoneNumbers`, `senderId`), whose
//   sandbox is "coming soon". The form endpoint used here is documented for live and sandbox alike,
//   and is the one the official SDK calls.
// - Without `from` a message goes out as AFRICASTKNG, not a name of the college's.
// - `bulkSMSMode` and `enqueue` are left to their default, 1: the sender pays, and the API answers
//   before the network does (hence 100 Processed and 102 Queued as well as 101 Sent).
// - A DoNotDisturbRejection (Nigeria only: a promotional sender id between 8pm and 8am) is answered
//   with HTTP 409 and the usual body, so the recipients are read whatever the HTTP status.

/**
 * Recipient status codes after which asking again sends nothing. The rest (405
 * InsufficientBalance, 500 InternalServerError, 501 GatewayError, 502 RejectedByGateway) may pass
 * later and are retried by the queue. 409 would pass after 8am, but it only meets a promotional
 * sender id, which the college should not be using, and a reset code is dead long before then.
 */
const REFUSED_FOR_GOOD: Record<number, string> = {
  401: "RiskHold",
  402: "InvalidSenderId",
  403: "InvalidPhoneNumber",
  404: "UnsupportedNumberType",
  406: "UserInBlacklist",
  407: "CouldNotRoute",
  409: "DoNotDisturbRejection",
};
/** 100 Processed, 101 Sent, 102 Queued: taken by the network or on its way. */
const ACCEPTED = new Set([100, 101, 102]);

/** `POST /version1/messaging`'s answer, as documented; anything else is read as a failure. */
export const MessagingAnswer = z.object({
  SMSMessageData: z.object({
    Message: z.string(),
    Recipients: z.array(
      z.object({
        statusCode: z.number().int(),
        number: z.string(),
        status: z.string(),
        cost: z.string(),
        messageId: z.string(),
      }),
    ),
  }),
});

export type AfricasTalkingSettings = {
  /** The app's username ("sandbox" on Africa's Talking's sandbox). */
  username: string;
  apiKey: string;
  /** The registered alphanumeric sender id or short code; unset, AFRICASTKNG. */
  senderId?: string;
  baseUrl: string;
  /** Tests pass the local sandbox's. */
  fetch?: typeof fetch;
  /** How long one request may take, reading the answer included; the queue tries again after. Default 15 000 ms. */
  timeoutMs?: number;
};

/**
 * Sends one message at a time through Africa's Talking's bulk SMS API over plain HTTP: a form
 * body with `username`, `to`, `message` and `from`, the key in the `apiKey` header, JSON back
 * (decision 199). Errors name neither the number nor the key: the job that sent it says which message.
 */
export function createAfricasTalkingSender(settings: AfricasTalkingSettings): SmsSender {
  const fetchImpl = settings.fetch ?? globalThis.fetch;
  const timeoutMs = settings.timeoutMs ?? 15_000;
  const url = new URL("/version1/messaging", settings.baseUrl);

  return {
    async send({ to, text }) {
      // Africa's Talking's own words go into our errors, and may quote the key or the number: the
      // key goes here, numbers as every log line loses them (common/log/scrub.ts).
      const scrub = (said: string) =>
        scrubText(said.replaceAll(settings.apiKey, MASK)).slice(0, 200);

      const body = new URLSearchParams({ username: settings.username, to, message: text });
      if (settings.senderId) body.set("from", settings.senderId);
      let status: number;
      let answer: string;
      try {
        const response = await fetchImpl(url, {
          method: "POST",
          headers: {
            apiKey: settings.apiKey,
            Accept: "application/json",
            "Content-Type": "application/x-www-form-urlencoded",
          },
          body,
          signal: AbortSignal.timeout(timeoutMs),
        });
        status = response.status;
        answer = await response.text();
      } catch (error) {
        if (error instanceof Error && error.name === "TimeoutError")
          throw new Error(`Africa's Talking did not answer within ${timeoutMs} ms`);
        throw new Error(`Could not reach Africa's Talking: ${scrub(reason(error))}`);
      }

      const parsed = MessagingAnswer.safeParse(parseJson(answer));
      if (!parsed.success) {
        if (status < 200 || status > 299)
          throw new Error(`Africa's Talking answered HTTP ${status}: ${scrub(answer)}`);
        throw new Error(`Africa's Talking's answer was not as documented`);
      }
      const { Message, Recipients } = parsed.data.SMSMessageData;
      const [recipient] = Recipients;
      if (!recipient)
        throw new Error(`Africa's Talking sent to no one (HTTP ${status}): ${scrub(Message)}`);
      if (ACCEPTED.has(recipient.statusCode))
        return { providerMessageId: recipient.messageId, cost: recipient.cost };
      const why = `${recipient.statusCode} ${scrub(recipient.status)}`;
      if (recipient.statusCode in REFUSED_FOR_GOOD)
        throw new SmsRefused(`Africa's Talking refused: ${why}`);
      throw new Error(`Africa's Talking did not send: ${why}`);
    },
    describe: () => `Africa's Talking (${settings.username} at ${url.host})`,
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** What went wrong on the way, e.g. "fetch failed (ECONNREFUSED)". */
function reason(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error.cause as { code?: unknown } | undefined)?.code;
  return typeof code === "string" ? `${error.message} (${code})` : error.message;
}
