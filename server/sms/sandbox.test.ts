import { describe, expect, it } from "vitest";
import { MessagingAnswer } from "./africas-talking.ts";
import { createAfricasTalkingSandbox } from "./sandbox.ts";

// What the sandbox answers on its own; the sender against it is africas-talking.contract.test.ts.
const ACCOUNT = { username: "college", apiKey: "at-test-key-0123456789" };

function post(
  sandbox: ReturnType<typeof createAfricasTalkingSandbox>,
  form: Record<string, string>,
  apiKey = ACCOUNT.apiKey,
) {
  return sandbox.fetch(
    new Request("http://sandbox.test/version1/messaging", {
      method: "POST",
      headers: { apiKey, Accept: "application/json" },
      body: new URLSearchParams(form),
    }),
  );
}

describe("the Africa's Talking sandbox", () => {
  it("answers 201 with the documented JSON, a cost per segment and per number", async () => {
    const sandbox = createAfricasTalkingSandbox(ACCOUNT);
    const before = Date.now();
    const response = await post(sandbox, {
      username: "college",
      to: "+2348030000001, +2348030000002",
      message: "a".repeat(161),
      from: "CROWNFIELD",
    });
    expect(response.status).toBe(201);
    const answer = MessagingAnswer.parse(await response.json());
    expect(answer.SMSMessageData.Message).toBe("Sent to 2/2 Total Cost: NGN 8.8000");
    expect(answer.SMSMessageData.Recipients).toEqual([
      {
        statusCode: 101,
        number: "+2348030000001",
        status: "Success",
        cost: "NGN 4.4000",
        messageId: expect.stringMatching(/^ATXid_[0-9a-f]{32}$/),
      },
      expect.objectContaining({ number: "+2348030000002", cost: "NGN 4.4000" }),
    ]);
    const sent = sandbox.sent();
    expect(sent.map(({ to, from, messageId }) => ({ to, from, messageId }))).toEqual(
      answer.SMSMessageData.Recipients.map(({ number, messageId }) => ({
        to: number,
        from: "CROWNFIELD",
        messageId,
      })),
    );
    expect(sent[0]!.message).toBe("a".repeat(161));
    expect(sent[0]!.at.getTime()).toBeGreaterThanOrEqual(before);
  });

  it.each([
    ["a wrong key", { username: "college" }, "wrong-key"],
    ["a wrong username", { username: "sandbox" }, ACCOUNT.apiKey],
  ])("answers %s with 401 in plain text", async (_, form, apiKey) => {
    const sandbox = createAfricasTalkingSandbox(ACCOUNT);
    const response = await post(sandbox, { ...form, to: "+2348030000001", message: "Hi" }, apiKey);
    expect(response.status).toBe(401);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(await response.text()).toBe("The supplied authentication is invalid");
    expect(sandbox.sent()).toEqual([]);
  });

  it.each([
    ["no message", { to: "+2348030000001" }],
    ["no number", { message: "Hi" }],
    ["an empty number", { to: " ", message: "Hi" }],
  ])("answers a form with %s with 400", async (_, form) => {
    const sandbox = createAfricasTalkingSandbox(ACCOUNT);
    const response = await post(sandbox, { username: "college", ...form });
    expect(response.status).toBe(400);
  });

  it.each([
    ["a local number", "08030000001", 201, 403, "InvalidPhoneNumber"],
    ["a number of another country", "+254711000001", 201, 403, "InvalidPhoneNumber"],
    ["the refused test number", "+2348030000403", 201, 403, "InvalidPhoneNumber"],
    ["the do-not-disturb test number", "+2348030000409", 409, 409, "DoNotDisturbRejection"],
    ["the failing test number", "+2348030000500", 201, 500, "InternalServerError"],
  ])("answers %s with its status code", async (_, to, httpStatus, statusCode, status) => {
    const sandbox = createAfricasTalkingSandbox(ACCOUNT);
    const response = await post(sandbox, { username: "college", to, message: "Hi" });
    expect(response.status).toBe(httpStatus);
    expect(MessagingAnswer.parse(await response.json()).SMSMessageData).toEqual({
      Message: "Sent to 0/1 Total Cost: 0",
      Recipients: [{ statusCode, number: to, status, cost: "0", messageId: "None" }],
    });
    expect(sandbox.sent()).toEqual([]);
  });
});
