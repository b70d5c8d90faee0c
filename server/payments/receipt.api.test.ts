import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readOutbox } from "../mail/outbox.ts";
import { readSmsOutbox } from "../sms/outbox.ts";
import type { Mailer } from "../mail/mailer.ts";
import { mailJobs } from "../testing/mail-jobs.test-kit.ts";
import { readSlipToken } from "./slip-token.ts";
import { createPaymentsKit, type PaymentsKit } from "./payments.test-kit.ts";

async function until<T>(check: () => Promise<T | undefined>, ms = 8_000): Promise<T> {
  for (
    const started = Date.now();
    Date.now() - started < ms;
    await new Promise((resolve) => setTimeout(resolve, 100))
  ) {
    const found = await check();
    if (found !== undefined) return found;
  }
  throw new Error("timed out");
}

async function paidAndCredited(kit: PaymentsKit, option = "full") {
  const me = await kit.newStudent();
  const reference = await kit.start(me, option);
  await kit.payAtSandbox(reference);
  expect((await kit.verify(reference, me.token)).status).toBe(200);
  return { me, reference };
}

describe("the e-mail receipt of a credited payment", () => {
  let kit: PaymentsKit;
  beforeAll(async () => {
    kit = await createPaymentsKit();
    await kit.api.jobs.work({ pollingIntervalSeconds: 0.5 });
  });
  afterAll(() => kit.api.close());

  it("reaches the student with the amount and the slip's verification link", async () => {
    const { me, reference } = await paidAndCredited(kit);
    const mail = await until(async () =>
      (await readOutbox(kit.api.outboxDir)).find((message) => message.text.includes(reference)),
    );
    expect(mail.to).toBe(me.student.email);
    expect(mail.subject).toBe("Payment receipt: Full Payment, 100 level, 2024/2025");
    expect(mail.text).toContain("₦120,000");
    const link = /http:\/\/localhost:4321\/verify\/(\S+)/.exec(mail.text)?.[1];
    expect(readSlipToken(link!, kit.api.deps.slipSigningKey)).toEqual({
      kind: "school-fee",
      reference,
    });
  });

  it("is queued once although both verify and the webhook report the payment", async () => {
    const { reference } = await paidAndCredited(kit, "part");
    for (const webhook of kit.api.webhooks.splice(0))
      await kit.deliverWebhook(webhook.body, webhook.signature);
    const jobs = (await mailJobs(kit.api.db)).filter((job) => job.data.text.includes(reference));
    expect(jobs).toHaveLength(1);
  });

  it("is not queued for a payment that was not credited", async () => {
    const me = await kit.newStudent();
    const reference = await kit.start(me, "full");
    expect((await kit.verify(reference, me.token)).status).toBe(409);
    expect(
      (await mailJobs(kit.api.db)).filter((job) => job.data.text.includes(reference)),
    ).toHaveLength(0);
  });
});

describe("the SMS receipt of a credited payment (decision 200)", () => {
  let kit: PaymentsKit;
  beforeAll(async () => {
    kit = await createPaymentsKit();
  });
  afterAll(() => kit.api.close());

  const textsWith = async (reference: string) => {
    await kit.api.deliverSms();
    return (await readSmsOutbox(kit.api.smsOutboxDir)).filter((sms) =>
      sms.text.includes(reference),
    );
  };

  it("reaches the phone on the record with the amount in NGN, once, however often it is credited", async () => {
    const { me, reference } = await paidAndCredited(kit);
    for (const webhook of kit.api.webhooks.splice(0))
      await kit.deliverWebhook(webhook.body, webhook.signature);
    const texts = await textsWith(reference);
    expect(texts.map(({ to, text }) => ({ to, text }))).toEqual([
      {
        to: `+234${me.student.phone.slice(1)}`,
        text: `Payment received: NGN 120,000.00 for Full Payment, 100 level, 2024/2025. Ref ${reference}. Your slip is on the portal. Student Portal`,
      },
    ]);
    expect(texts[0]!.segments).toBe(1);
  });

  it("reaches a student who has no e-mail address", async () => {
    const me = await kit.newStudent({ email: null });
    const reference = await kit.start(me, "full");
    await kit.payAtSandbox(reference);
    expect((await kit.verify(reference, me.token)).status).toBe(200);
    expect(await textsWith(reference)).toHaveLength(1);
  });
});

describe("a mail outage", () => {
  let kit: PaymentsKit;
  const down: Mailer = {
    send: async () => {
      throw new Error("SMTP smtp.college.test:587 refused the connection");
    },
    describe: () => "SMTP smtp.college.test:587",
  };
  beforeAll(async () => {
    kit = await createPaymentsKit({ mailer: down });
    await kit.api.jobs.work({ pollingIntervalSeconds: 0.5 });
  });
  afterAll(() => kit.api.close());

  it("keeps the receipt queued for a retry with back-off, and logs why", async () => {
    const { reference } = await paidAndCredited(kit);
    const job = await until(async () =>
      (await mailJobs(kit.api.db)).find(
        (row) => row.data.text.includes(reference) && row.state === "retry",
      ),
    );
    expect(job.waits).toBe(true);
    expect(
      kit.api.logger.lines.some(
        (line) =>
          line.includes("mail not sent; will retry") && line.includes("refused the connection"),
      ),
    ).toBe(true);
  });
});
