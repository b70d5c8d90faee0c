import { randomBytes } from "node:crypto";
import { Hono } from "hono";
import { smsSegments } from "./gsm7.ts";

/** What the sandbox was asked to send. */
export type SandboxSms = { to: string; message: string; from?: string; messageId: string };

/**
 * A local stand-in for Africa's Talking's SMS API, for contract tests (decision 199): it answers
 * `POST /version1/messaging` as the documentation says, checks the `apiKey` header and the
 * username, and keeps what it was asked to send. Two test numbers answer as a real network might:
 * one ending in 0000403 gets statusCode 403 InvalidPhoneNumber (refused for good), one ending in
 * 0000500 gets 500 InternalServerError (worth trying again).
 */
export function createAfricasTalkingSandbox(options: { username: string; apiKey: string }) {
  const sent: SandboxSms[] = [];
  const app = new Hono();

  app.post("/version1/messaging", async (c) => {
    // Africa's Talking answers a wrong key in plain text, not JSON.
    if (c.req.header("apiKey") !== options.apiKey)
      return c.text("The supplied authentication is invalid", 401);
    const form = await c.req.parseBody();
    if (form.username !== options.username)
      return c.text("The supplied authentication is invalid", 401);
    const message = typeof form.message === "string" ? form.message : "";
    const numbers = typeof form.to === "string" ? form.to.split(",").map((n) => n.trim()) : [];
    if (!message || numbers.length === 0 || numbers.some((n) => !/^\+\d{10,15}$/.test(n)))
      return c.text("Request is missing required form field 'to' or 'message'", 400);
    const from = typeof form.from === "string" ? form.from : undefined;
    const costPerMessage = (2.2 * smsSegments(message)).toFixed(4);
    const recipients = numbers.map((number) => {
      if (number.endsWith("0000403"))
        return {
          statusCode: 403,
          number,
          status: "InvalidPhoneNumber",
          cost: "0",
          messageId: "None",
        };
      if (number.endsWith("0000500"))
        return {
          statusCode: 500,
          number,
          status: "InternalServerError",
          cost: "0",
          messageId: "None",
        };
      const messageId = `ATXid_${randomBytes(16).toString("hex")}`;
      sent.push({ to: number, message, from, messageId });
      return {
        statusCode: 101,
        number,
        status: "Success",
        cost: `NGN ${costPerMessage}`,
        messageId,
      };
    });
    const accepted = recipients.filter((r) => r.statusCode === 101).length;
    return c.json(
      {
        SMSMessageData: {
          Message: `Sent to ${accepted}/${numbers.length} Total Cost: NGN ${(accepted * Number(costPerMessage)).toFixed(4)}`,
          Recipients: recipients,
        },
      },
      201,
    );
  });

  return {
    fetch: (request: Request) => app.fetch(request),
    /** What was accepted, oldest first. */
    sent: () => [...sent],
  };
}
