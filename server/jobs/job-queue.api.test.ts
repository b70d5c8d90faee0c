import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../db/client.ts";
import { createMemoryLogger } from "../http/logger.ts";
import type { Mailer, MailMessage } from "../mail/mailer.ts";
import { openTestDatabase } from "../testing/test-database.test-kit.ts";
import { startJobQueue, type RunningJobQueue } from "./job-queue.ts";
import { SEND_MAIL } from "./send-mail.ts";
import { SCHEDULED_JOB_NAMES } from "./scheduled-work.ts";

const onPostgres = process.env.TEST_DATABASE === "postgres";

const message = (to: string): MailMessage => ({
  to,
  subject: "Payment received",
  text: "We received your payment.",
});

let database: DatabaseHandle;
let jobs: RunningJobQueue;
const sent: MailMessage[] = [];
const mailer: Mailer = {
  send: async (mail) => void sent.push(mail),
  describe: () => "a list",
};

beforeAll(async () => {
  database = await openTestDatabase();
  jobs = await startJobQueue(database, { mailer, logger: createMemoryLogger() });
});
afterAll(async () => {
  await jobs.stop();
  await database.close();
});

async function queueOptions(name: string) {
  const result = await database.db.execute<{ notify: boolean }>(
    sql`select notify from pgboss.queue where name = ${name}`,
  );
  return result.rows[0];
}

describe("the job queue wakes its scheduled workers when a job is queued", () => {
  it("marks every scheduled queue to send a notice with each new job, and the mail queue not", async () => {
    expect(await queueOptions(SEND_MAIL)).toEqual({ notify: false });
    for (const name of SCHEDULED_JOB_NAMES)
      expect(await queueOptions(name), name).toEqual({ notify: true });
  });

  it("gives queues made before notices their setting when the portal starts again", async () => {
    await database.db.execute(sql`update pgboss.queue set notify = not notify`);
    const again = await startJobQueue(database, { mailer, logger: createMemoryLogger() });
    await again.stop();
    expect(await queueOptions(SEND_MAIL)).toEqual({ notify: false });
    for (const name of SCHEDULED_JOB_NAMES)
      expect(await queueOptions(name), name).toEqual({ notify: true });
  });

  it.runIf(onPostgres)(
    "on PostgreSQL, runs a scheduled job at once though its worker would ask only once a minute",
    async () => {
      const ran: string[] = [];
      const scheduled = Object.fromEntries(
        SCHEDULED_JOB_NAMES.map((name) => [
          name,
          async () => {
            ran.push(name);
            return 0;
          },
        ]),
      ) as Record<(typeof SCHEDULED_JOB_NAMES)[number], () => Promise<number>>;
      await jobs.work({ pollingIntervalSeconds: 60, scheduled });
      // Each worker's first ask comes as it starts (the cron pass may have queued a job by
      // then); wait for those asks, then start from nothing.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      ran.length = 0;
      expect(await jobs.runNow("purge-rate-limits")).toBe(true);
      await expect.poll(() => ran, { timeout: 10_000 }).toEqual(["purge-rate-limits"]);
    },
  );

  it("still sends mail by polling, so a burst of receipts goes out together", async () => {
    await jobs.work({ pollingIntervalSeconds: 0.5 });
    const burst = ["b1", "b2", "b3", "b4", "b5"].map((name) => `${name}@example.edu.ng`);
    await database.db.transaction(async (tx) => {
      for (const to of burst) await jobs.sendMail(tx, message(to));
    });
    await expect.poll(() => sent.map((mail) => mail.to).sort(), { timeout: 10_000 }).toEqual(burst);
  });
});
