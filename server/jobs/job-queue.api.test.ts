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

describe("the job queue wakes its workers when a job is queued", () => {
  it("marks the mail queue and every scheduled queue to send a notice with each new job", async () => {
    for (const name of [SEND_MAIL, ...SCHEDULED_JOB_NAMES])
      expect(await queueOptions(name), name).toEqual({ notify: true });
  });

  it("gives a queue made before notices the setting when the portal starts again", async () => {
    await database.db.execute(sql`update pgboss.queue set notify = false`);
    const again = await startJobQueue(database, { mailer, logger: createMemoryLogger() });
    await again.stop();
    for (const name of [SEND_MAIL, ...SCHEDULED_JOB_NAMES])
      expect(await queueOptions(name), name).toEqual({ notify: true });
  });

  it.runIf(onPostgres)(
    "on PostgreSQL, sends a queued e-mail at once though the worker would ask only once a minute",
    async () => {
      await jobs.work({ pollingIntervalSeconds: 60 });
      // The worker's first ask comes as it starts; wait for it to find nothing.
      await new Promise((resolve) => setTimeout(resolve, 500));
      await database.db.transaction(async (tx) => {
        await jobs.sendMail(tx, message("ada@example.edu.ng"));
      });
      await expect
        .poll(() => sent.map((mail) => mail.to), { timeout: 10_000 })
        .toEqual(["ada@example.edu.ng"]);
    },
  );
});
