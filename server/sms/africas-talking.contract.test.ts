import { describe, expect, it } from "vitest";
import { createAfricasTalkingSender } from "./africas-talking.ts";
import { createAfricasTalkingSandbox } from "./sandbox.ts";
import { SmsRefused } from "./sms-message.ts";

// The real client against a sandbox that answers as Africa's Talking's documentation says
// (decision 199): the request it sends, and what it makes of each kind of answer.

const ACCOUNT = { username: "college", apiKey: "at-test-key-0123456789" };

function senderAgainstSandbox(overrides: { apiKey?: string; senderId?: string } = {}) {
  const sandbox = createAfricasTalkingSandbox(ACCOUNT);
  const requests: Request[] = [];
  const sender = createAfricasTalkingSender({
    ...ACCOUNT,
    ...overrides,
    baseUrl: "http://sandbox.test",
    fetch: async (input, init) => {
      const request = new Request(input, init);
      requests.push(request.clone());
      return sandbox.fetch(request);
    },
  });
  return { sandbox, sender, requests };
}

describe("the Africa's Talking sender", () => {
  it("posts the documented form with the key in the apiKey header, and answers the receipt", async () => {
    const { sandbox, sender, requests } = senderAgainstSandbox({ senderId: "CROWNFIELD" });
    const receipt = await sender.send({ to: "+2348030000001", text: "123456 is your code." });
    const [accepted] = sandbox.sent();
    expect(accepted).toMatchObject({
      to: "+2348030000001",
      message: "123456 is your code.",
      from: "CROWNFIELD",
    });
    expect(receipt).toEqual({ providerMessageId: accepted!.messageId, cost: "NGN 2.2000" });
    const [request] = requests;
    expect(new URL(request!.url).pathname).toBe("/version1/messaging");
    expect(request!.headers.get("apikey")).toBe(ACCOUNT.apiKey);
    expect(request!.headers.get("accept")).toBe("application/json");
    expect(request!.headers.get("content-type")).toBe("application/x-www-form-urlencoded");
    expect(Object.fromEntries(new URLSearchParams(await request!.text()))).toEqual({
      username: "college",
      to: "+2348030000001",
      message: "123456 is your code.",
      from: "CROWNFIELD",
    });
  });

  it("sends no from without a sender id, so the account's default is used", async () => {
    const { sender, requests } = senderAgainstSandbox();
    await sender.send({ to: "+2348030000001", text: "Hello." });
    expect(new URLSearchParams(await requests[0]!.text()).has("from")).toBe(false);
  });

  it("fails, to be tried again, on a wrong key, and never says the key or the number", async () => {
    const { sender } = senderAgainstSandbox({ apiKey: "wrong-key-0123456789" });
    const error = await sender
      .send({ to: "+2348030000001", text: "Hello." })
      .catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(SmsRefused);
    expect((error as Error).message).toContain("HTTP 401");
    expect((error as Error).message).not.toContain("wrong-key");
    expect((error as Error).message).not.toContain("8030000001");
    expect((error as Error).message).not.toContain("+234803");
  });

  it("refuses for good a number the network will not take", async () => {
    const { sender, sandbox } = senderAgainstSandbox();
    const error = await sender
      .send({ to: "+2348030000403", text: "Hello." })
      .catch((e: Error) => e);
    expect(error).toBeInstanceOf(SmsRefused);
    expect((error as Error).message).toBe("Africa's Talking refused: 403 InvalidPhoneNumber");
    expect(sandbox.sent()).toEqual([]);
  });

  it("refuses for good a do-not-disturb rejection, which comes with HTTP 409", async () => {
    const { sender } = senderAgainstSandbox();
    const error = await sender
      .send({ to: "+2348030000409", text: "Hello." })
      .catch((e: Error) => e);
    expect(error).toBeInstanceOf(SmsRefused);
    expect((error as Error).message).toContain("409 DoNotDisturbRejection");
  });

  it("fails, to be tried again, when the provider fails inside", async () => {
    const { sender } = senderAgainstSandbox();
    const error = await sender
      .send({ to: "+2348030000500", text: "Hello." })
      .catch((e: Error) => e);
    expect(error).not.toBeInstanceOf(SmsRefused);
    expect((error as Error).message).toContain("500 InternalServerError");
  });

  it.each([
    ["a page", "<html>maintenance</html>"],
    [
      "a status code as text",
      JSON.stringify({
        SMSMessageData: {
          Message: "Sent to 1/1",
          Recipients: [
            {
              statusCode: "101",
              number: "+2348030000001",
              status: "Success",
              cost: "NGN 2.2000",
              messageId: "ATXid_1",
            },
          ],
        },
      }),
    ],
  ])("fails, to be tried again, on an answer not as documented: %s", async (_, answer) => {
    const sender = createAfricasTalkingSender({
      ...ACCOUNT,
      baseUrl: "http://sandbox.test",
      fetch: async () => new Response(answer, { status: 201 }),
    });
    const error = await sender
      .send({ to: "+2348030000001", text: "Hello." })
      .catch((e: Error) => e);
    expect(error).not.toBeInstanceOf(SmsRefused);
    expect((error as Error).message).toBe("Africa's Talking's answer was not as documented");
  });

  it("gives up on a provider that does not answer in time", async () => {
    const sender = createAfricasTalkingSender({
      ...ACCOUNT,
      baseUrl: "http://sandbox.test",
      timeoutMs: 50,
      fetch: (_, init) =>
        new Promise((_resolve, reject) =>
          init?.signal?.addEventListener("abort", () => reject(init.signal!.reason)),
        ),
    });
    const error = await sender
      .send({ to: "+2348030000001", text: "Hello." })
      .catch((e: Error) => e);
    expect(error).not.toBeInstanceOf(SmsRefused);
    expect((error as Error).message).toBe("Africa's Talking did not answer within 50 ms");
  });

  it("fails, to be tried again, when the network is down", async () => {
    const sender = createAfricasTalkingSender({
      ...ACCOUNT,
      baseUrl: "http://sandbox.test",
      fetch: async () => {
        throw new TypeError("fetch failed", { cause: { code: "ECONNREFUSED" } });
      },
    });
    const error = await sender
      .send({ to: "+2348030000001", text: "Hello." })
      .catch((e: Error) => e);
    expect(error).not.toBeInstanceOf(SmsRefused);
    expect((error as Error).message).toBe(
      "Could not reach Africa's Talking: fetch failed (ECONNREFUSED)",
    );
  });

  it("masks the number and the key wherever Africa's Talking's own words quote them", async () => {
    const sender = createAfricasTalkingSender({
      ...ACCOUNT,
      baseUrl: "http://sandbox.test",
      fetch: async () =>
        new Response(`Key ${ACCOUNT.apiKey} may not send to 2348030000001 (+2348030000001)`, {
          status: 403,
        }),
    });
    const error = await sender
      .send({ to: "+2348030000001", text: "Hello." })
      .catch((e: Error) => e);
    expect((error as Error).message).toBe(
      "Africa's Talking answered HTTP 403: Key [redacted] may not send to [redacted] ([redacted])",
    );
  });

  it("describes itself without its key", () => {
    const { sender } = senderAgainstSandbox();
    expect(sender.describe()).toBe("Africa's Talking (college at sandbox.test)");
  });
});

describe("each documented recipient status code", () => {
  const answering = (statusCode: number, status: string) =>
    createAfricasTalkingSender({
      ...ACCOUNT,
      baseUrl: "http://sandbox.test",
      fetch: async () =>
        Response.json(
          {
            SMSMessageData: {
              Message: "Sent to 0/1 Total Cost: 0",
              Recipients: [
                { statusCode, number: "+2348030000001", status, cost: "0", messageId: "None" },
              ],
            },
          },
          { status: 201 },
        ),
    });

  it.each([
    [100, "Processed"],
    [101, "Success"],
    [102, "Queued"],
  ])("%i %s is a receipt", async (statusCode, status) => {
    await expect(
      answering(statusCode, status).send({ to: "+2348030000001", text: "Hi" }),
    ).resolves.toEqual({ providerMessageId: "None", cost: "0" });
  });

  it.each([
    [401, "RiskHold"],
    [402, "InvalidSenderId"],
    [403, "InvalidPhoneNumber"],
    [404, "UnsupportedNumberType"],
    [406, "UserInBlacklist"],
    [407, "CouldNotRoute"],
    [409, "DoNotDisturbRejection"],
  ])("%i %s is refused for good", async (statusCode, status) => {
    await expect(
      answering(statusCode, status).send({ to: "+2348030000001", text: "Hi" }),
    ).rejects.toBeInstanceOf(SmsRefused);
  });

  it.each([
    [405, "InsufficientBalance"],
    [500, "InternalServerError"],
    [501, "GatewayError"],
    [502, "RejectedByGateway"],
  ])("%i %s is tried again", async (statusCode, status) => {
    const error = await answering(statusCode, status)
      .send({ to: "+2348030000001", text: "Hi" })
      .catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(SmsRefused);
    expect((error as Error).message).toBe(`Africa's Talking did not send: ${statusCode} ${status}`);
  });

  it("an empty recipient list is tried again", async () => {
    const sender = createAfricasTalkingSender({
      ...ACCOUNT,
      baseUrl: "http://sandbox.test",
      fetch: async () =>
        Response.json({ SMSMessageData: { Message: "InvalidSenderId", Recipients: [] } }),
    });
    const error = await sender.send({ to: "+2348030000001", text: "Hi" }).catch((e: Error) => e);
    expect(error).not.toBeInstanceOf(SmsRefused);
    expect((error as Error).message).toBe(
      "Africa's Talking sent to no one (HTTP 200): InvalidSenderId",
    );
  });
});
