import { z } from "zod";
import { maskPhone } from "./phone-numbers.ts";
import { SmsRefused, type SmsSender } from "./sms-message.ts";

/** Africa's Talking's live API, and its own sandbox (username "sandbox", messages to its simulator). */
export const AFRICAS_TALKING_LIVE_URL = "https://api.africastalking.com";
export const AFRICAS_TALKING_SANDBOX_URL = "https://api.sandbox.africastalking.com";

/**
 * Recipient status codes Africa's Talking documents as final: asking again sends nothing. The rest
 * (405 InsufficientBalance, 500 InternalServerError, 501 GatewayError, 502 RejectedByGateway) may
 * pass later and are retried by the queue.
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
  /** The registered alphanumeric sender id or short code; unset, the account's default. */
  senderId?: string;
  baseUrl: string;
  /** Tests pass the local sandbox's. */
  fetch?: typeof fetch;
  /** How long one request may take; the queue tries again after. */
  timeoutMs?: number;
};

/**
 * Sends one message at a time through Africa's Talking's bulk SMS API over plain HTTP: a form
 * body with `username`, `to`, `message` and `from`, the key in the `apiKey` header, JSON back
 * (decision 199). Errors name the masked number and never the key.
 */
export function createAfricasTalkingSender(settings: AfricasTalkingSettings): SmsSender {
  const send = settings.fetch ?? fetch;
  const url = new URL("/version1/messaging", settings.baseUrl);
  return {
    async send({ to, text }) {
      const body = new URLSearchParams({ username: settings.username, to, message: text });
      if (settings.senderId) body.set("from", settings.senderId);
      const masked = maskPhone(to);
      let response: Response;
      try {
        response = await send(url, {
          method: "POST",
          headers: {
            apiKey: settings.apiKey,
            Accept: "application/json",
            "Content-Type": "application/x-www-form-urlencoded",
          },
          body,
          signal: AbortSignal.timeout(settings.timeoutMs ?? 15_000),
        });
      } catch (error) {
        throw new Error(`Africa's Talking did not answer for ${masked}: ${(error as Error).name}`);
      }
      const answer = await response.text();
      if (!response.ok)
        throw new Error(
          `Africa's Talking answered HTTP ${response.status} for ${masked}: ${answer.slice(0, 200)}`,
        );
      const parsed = MessagingAnswer.safeParse(safeJson(answer));
      if (!parsed.success)
        throw new Error(`Africa's Talking's answer for ${masked} was not as documented`);
      const [recipient] = parsed.data.SMSMessageData.Recipients;
      if (!recipient)
        throw new Error(
          `Africa's Talking sent to no one for ${masked}: ${parsed.data.SMSMessageData.Message}`,
        );
      if (ACCEPTED.has(recipient.statusCode))
        return { providerMessageId: recipient.messageId, cost: recipient.cost };
      const why = `${recipient.statusCode} ${recipient.status} for ${masked}`;
      if (recipient.statusCode in REFUSED_FOR_GOOD) throw new SmsRefused(why);
      throw new Error(`Africa's Talking did not send: ${why}`);
    },
    describe: () => `Africa's Talking (${settings.username} at ${url.host})`,
  };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
