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
    expect((error as Error).message).toContain("+234803****001");
  });

  it("refuses for good a number the network will not take", async () => {
    const { sender } = senderAgainstSandbox();
    await expect(sender.send({ to: "+2348030000403", text: "Hello." })).rejects.toBeInstanceOf(
      SmsRefused,
    );
  });

  it("fails, to be tried again, when the provider fails inside", async () => {
    const { sender } = senderAgainstSandbox();
    const error = await sender
      .send({ to: "+2348030000500", text: "Hello." })
      .catch((e: Error) => e);
    expect(error).not.toBeInstanceOf(SmsRefused);
    expect((error as Error).message).toContain("500 InternalServerError");
  });

  it("fails on an answer that is not as documented", async () => {
    const sender = createAfricasTalkingSender({
      ...ACCOUNT,
      baseUrl: "http://sandbox.test",
      fetch: async () => new Response("<html>maintenance</html>", { status: 200 }),
    });
    await expect(sender.send({ to: "+2348030000001", text: "Hello." })).rejects.toThrow(
      "was not as documented",
    );
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
    await expect(sender.send({ to: "+2348030000001", text: "Hello." })).rejects.toThrow(
      "did not answer for +234803****001: TimeoutError",
    );
  });

  it("describes itself without its key", () => {
    const { sender } = senderAgainstSandbox();
    expect(sender.describe()).toBe("Africa's Talking (college at sandbox.test)");
  });
});
