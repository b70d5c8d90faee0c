import { randomBytes } from "node:crypto";
import { Hono } from "hono";
import { smsSegments } from "./gsm7.ts";

/** A message the sandbox accepted for one number. */
export type SandboxSms = {
  to: string;
  message: string;
  from?: string;
  messageId: string;
  at: Date;
};

type Recipient = {
  statusCode: number;
  number: string;
  status: string;
  cost: string;
  messageId: string;
};

/** What the sandbox charges a segment, as Africa's Talking reports a cost: "NGN 2.2000". */
const NAIRA_PER_SEGMENT = 2.2;
// Africa's Talking answers a wrong key or username in plain text, not JSON.
const BAD_AUTHENTICATION = "The supplied authentication is invalid";

/**
 * A local stand-in for Africa's Talking's SMS API, for contract tests (decision 199): it answers
 * `POST /version1/messaging` as the documentation says, checks the `apiKey` header and the
 * username (401 in plain text when either is wrong), and keeps what it accepted (`sent()`).
 * A form without `to` or `message` gets 400; a number that is not +234 and ten digits gets
 * statusCode 403 InvalidPhoneNumber. Three test numbers answer as a real network might:
 * - ending in 0000403: statusCode 403 InvalidPhoneNumber, refused for good;
 * - ending in 0000409: statusCode 409 DoNotDisturbRejection with HTTP 409, as the documentation
 *   describes a promotional sender id at night, refused for good;
 * - ending in 0000500: statusCode 500 InternalServerError, worth trying again.
 */
export function createAfricasTalkingSandbox(options: { username: string; apiKey: string }) {
  const sent: SandboxSms[] = [];
  const app = new Hono();

  app.post("/version1/messaging", async (c) => {
    if (c.req.header("apiKey") !== options.apiKey) return c.text(BAD_AUTHENTICATION, 401);
    const form = await c.req.parseBody();
    if (form.username !== options.username) return c.text(BAD_AUTHENTICATION, 401);
    const message = typeof form.message === "string" ? form.message : "";
    const to = typeof form.to === "string" ? form.to : "";
    if (!message || !to.trim())
      return c.text("Request is missing required form field 'to' or 'message'", 400);
    const from = typeof form.from === "string" ? form.from : undefined;
    const cost = (NAIRA_PER_SEGMENT * smsSegments(message)).toFixed(4);

    const recipients = to.split(",").map((number): Recipient => {
      number = number.trim();
      const refusal = refusalFor(number);
      if (refusal) return { ...refusal, number, cost: "0", messageId: "None" };
      const messageId = `ATXid_${randomBytes(16).toString("hex")}`;
      sent.push({ to: number, message, from, messageId, at: new Date() });
      return { statusCode: 101, number, status: "Success", cost: `NGN ${cost}`, messageId };
    });
    const accepted = recipients.filter((r) => r.statusCode === 101).length;
    const total = accepted === 0 ? "0" : `NGN ${(accepted * Number(cost)).toFixed(4)}`;
    const answer = {
      SMSMessageData: {
        Message: `Sent to ${accepted}/${recipients.length} Total Cost: ${total}`,
        Recipients: recipients,
      },
    };
    return c.json(answer, recipients.some((r) => r.statusCode === 409) ? 409 : 201);
  });

  return {
    fetch: (request: Request) => app.fetch(request),
    /** What was accepted, oldest first. */
    sent: () => [...sent],
  };
}

function refusalFor(number: string): { statusCode: number; status: string } | undefined {
  if (!/^\+234\d{10}$/.test(number) || number.endsWith("0000403"))
    return { statusCode: 403, status: "InvalidPhoneNumber" };
  if (number.endsWith("0000409")) return { statusCode: 409, status: "DoNotDisturbRejection" };
  if (number.endsWith("0000500")) return { statusCode: 500, status: "InternalServerError" };
  return undefined;
}
