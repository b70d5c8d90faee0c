import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiHarness, type ApiHarness } from "../testing/api-harness.test-kit.ts";
import { smsMessages } from "../db/schema.ts";
import { SmsRefused, type SmsMessage, type SmsSender } from "../sms/sms-message.ts";
import { retriesFor, SEND_SMS } from "./send-sms.ts";

// Every text message goes through the durable queue, once per idempotency key; a provider that
// fails is tried again without a second message, and one that refuses for good is not (decision 200).

/** A provider that answers as each test tells it, and keeps what it accepted. */
function scriptedProvider() {
  const accepted: SmsMessage[] = [];
  let next: (message: SmsMessage) => void = () => {};
  const sender: SmsSender = {
    async send(message) {
      next(message);
      accepted.push(message);
      return { providerMessageId: `ATXid_${accepted.length}`, cost: "NGN 2.2000" };
    },
    describe: () => "scripted",
  };
  return { sender, accepted, answerNext: (answer: typeof next) => (next = answer) };
}

let api: ApiHarness;
const provider = scriptedProvider();
beforeAll(async () => {
  api = await createApiHarness({ sms: provider.sender });
});
afterAll(() => api.close());

const rowOf = async (key: string) =>
  (await api.db.select().from(smsMessages).where(eq(smsMessages.idempotencyKey, key)))[0];

describe("the SMS queue", () => {
  it("queues one message per key, however often it is asked", async () => {
    const message = {
      key: "test:once",
      kind: "test",
      studentId: null,
      to: "+2348030000001",
      text: "Once.",
    };
    expect(await api.jobs.sendSms(api.db, message)).toBe(true);
    expect(await api.jobs.sendSms(api.db, message)).toBe(false);
    const before = provider.accepted.length;
    expect(await api.deliverSms()).toEqual({ sent: 1, failed: 0 });
    expect(provider.accepted.slice(before)).toEqual([{ to: "+2348030000001", text: "Once." }]);
    expect(await rowOf("test:once")).toMatchObject({
      status: "sent",
      providerMessageId: `ATXid_${before + 1}`,
      cost: "NGN 2.2000",
    });
  });

  it("sends nothing when the transaction that queued it rolls back", async () => {
    await api.db
      .transaction(async (tx) => {
        await api.jobs.sendSms(tx, {
          key: "test:rolled-back",
          kind: "test",
          studentId: null,
          to: "+2348030000002",
          text: "Never.",
        });
        throw new Error("roll back");
      })
      .catch(() => {});
    expect(await api.deliverSms()).toEqual({ sent: 0, failed: 0 });
    expect(await rowOf("test:rolled-back")).toBeUndefined();
  });

  it("tries a failed message again later, and sends it once", async () => {
    await api.jobs.sendSms(api.db, {
      key: "test:retry",
      kind: "test",
      studentId: null,
      to: "+2348030000003",
      text: "Retried.",
      retryForSeconds: 600,
    });
    provider.answerNext(() => {
      throw new Error("provider unreachable");
    });
    expect(await api.deliverSms()).toEqual({ sent: 0, failed: 1 });
    expect((await rowOf("test:retry"))?.status).toBe("queued");
    expect(api.logger.lines.join("\n")).not.toContain("+2348030000003");
    provider.answerNext(() => {});
    // The back-off runs on the database's clock: bring the retry forward rather than wait 15 s.
    const [waiting] = (
      await api.db.execute<{ start_after: Date }>(
        sql`update pgboss.job set start_after = now() where name = ${SEND_SMS} and state = 'retry' returning start_after`,
      )
    ).rows;
    expect(waiting).toBeDefined();
    const before = provider.accepted.length;
    expect(await api.deliverSms()).toEqual({ sent: 1, failed: 0 });
    expect(provider.accepted.slice(before).map((sms) => sms.text)).toEqual(["Retried."]);
    expect((await rowOf("test:retry"))?.status).toBe("sent");
  });

  it("records a refusal for good and does not try again", async () => {
    await api.jobs.sendSms(api.db, {
      key: "test:refused",
      kind: "test",
      studentId: null,
      to: "+2348030000004",
      text: "Refused.",
    });
    provider.answerNext(() => {
      throw new SmsRefused("InvalidPhoneNumber");
    });
    expect(await api.deliverSms()).toEqual({ sent: 1, failed: 0 });
    provider.answerNext(() => {});
    expect((await rowOf("test:refused"))?.status).toBe("refused");
    expect(await api.deliverSms()).toEqual({ sent: 0, failed: 0 });
  });
});

describe("retriesFor", () => {
  it("keeps a short-lived message's retries within its life", () => {
    // 15 + 30 + 60 + 120 + 240 = 465 s of waits fit in nine minutes; a sixth (480 s more) would not.
    expect(
      retriesFor({ key: "k", kind: "k", studentId: null, to: "", text: "", retryForSeconds: 540 }),
    ).toEqual({
      retryLimit: 5,
      retryDelay: 15,
      retryBackoff: true,
    });
    expect(retriesFor({ key: "k", kind: "k", studentId: null, to: "", text: "" })).toEqual({});
  });
});
