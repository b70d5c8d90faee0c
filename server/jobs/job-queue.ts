import { sql } from "drizzle-orm";
import { fromDrizzle, PgBoss, type Job } from "pg-boss";
import type { DatabaseHandle } from "../db/client.ts";
import type { Logger } from "../http/logger.ts";
import type { Mailer, MailMessage } from "../mail/mailer.ts";
import { SEND_MAIL, SEND_MAIL_QUEUE, sendMailJob } from "./send-mail.ts";
import {
  recordQueuedSms,
  retriesFor,
  SEND_SMS,
  SEND_SMS_QUEUE,
  sendSmsJob,
  type SmsJob,
} from "./send-sms.ts";
import type { SmsSender } from "../sms/sms-message.ts";
import type { JobQueue } from "./api-jobs.ts";
import {
  SCHEDULED_JOB_NAMES,
  SCHEDULED_JOBS,
  SCHEDULED_POLLING_SECONDS,
  SCHEDULED_QUEUE,
  type ScheduledJobName,
} from "./scheduled-work.ts";

/**
 * Where NOTIFY wakes the scheduled workers, how often they still ask: for an occurrence whose
 * notice was missed while the listening connection was down. Jobs come once a minute at most,
 * one per queue, so one notice is one job.
 */
const NOTIFIED_POLLING_SECONDS = 60;

export type RunningJobQueue = JobQueue & {
  /**
   * Starts taking jobs in this process: mail, and the scheduled work when its handlers are given
   * (server/jobs/scheduled-work.ts). Every serving instance does both; each job still runs once.
   */
  work(options?: {
    pollingIntervalSeconds?: number;
    scheduled?: Record<ScheduledJobName, () => Promise<number>>;
  }): Promise<void>;
  /**
   * Sends, once each, the queued e-mails that are due now, as a worker would: a failure goes back
   * to the queue with its back-off. Answers how many were sent and failed. For tests and tools
   * that want mail out without waiting for a polling worker.
   */
  sendDueMail(): Promise<{ sent: number; failed: number }>;
  /** The same for queued text messages. */
  sendDueSms(): Promise<{ sent: number; failed: number }>;
  /** Queues a run of a scheduled job now; false when one is already waiting or running. */
  runNow(name: ScheduledJobName): Promise<boolean>;
  /** The schedules the database holds, as pg-boss will fire them. */
  schedules(): Promise<{ name: string; cron: string; timezone: string }[]>;
  stop(): Promise<void>;
};

/**
 * Starts pg-boss on the portal's own database: on PGlite through the same embedded instance, on
 * PostgreSQL through its own small pool. Its tables live in the `pgboss` schema it migrates itself.
 * Every instance writes the schedules (the same rows each time) and takes part in pg-boss's cron
 * pass, which one instance at a time wins (decision 121).
 */
export async function startJobQueue(
  database: Pick<DatabaseHandle, "jobConnection" | "db">,
  /** Without `sms` (tools and tests that send none) text messages stay queued for an instance that has one. */
  deps: { mailer: Mailer; sms?: SmsSender; logger: Logger },
): Promise<RunningJobQueue> {
  const connection = database.jobConnection;
  const boss =
    "pglite" in connection
      ? new PgBoss({
          db: { executeSql: (text, values) => connection.pglite.pool.query(text, values) },
          backend: "pglite",
        })
      : // On PostgreSQL a scheduled job wakes its worker through LISTEN/NOTIFY (one more
        // connection per instance), so the scheduled queues are asked once a minute rather
        // than every 10 s in every instance (decision 195).
        new PgBoss({ connectionString: connection.url, max: 3, useListenNotify: true });
  boss.on("error", (error: Error) =>
    deps.logger.error("job queue error", { error: error.message }),
  );
  await boss.start();
  // createQueue leaves an existing queue as it was: the notice setting is made here too.
  await boss.createQueue(SEND_MAIL, SEND_MAIL_QUEUE);
  await boss.updateQueue(SEND_MAIL, { notify: SEND_MAIL_QUEUE.notify });
  await boss.createQueue(SEND_SMS, SEND_SMS_QUEUE);
  for (const name of SCHEDULED_JOB_NAMES) {
    await boss.createQueue(name, SCHEDULED_QUEUE);
    await boss.updateQueue(name, { notify: SCHEDULED_QUEUE.notify });
    await boss.schedule(name, SCHEDULED_JOBS[name].cron, null, { tz: "UTC" });
  }
  const sendMail = sendMailJob(deps);
  const sms = deps.sms;
  const sendSms = sms && sendSmsJob({ sms, db: database.db, logger: deps.logger });
  /** Runs what is due on `queue` now, once each; a failure goes back with its back-off. */
  async function sendDue<T extends object>(queue: string, send: (jobs: Job<T>[]) => Promise<void>) {
    const counts = { sent: 0, failed: 0 };
    for (
      let jobs = await boss.fetch<T>(queue, { batchSize: 20 });
      jobs.length;
      jobs = await boss.fetch<T>(queue, { batchSize: 20 })
    ) {
      for (const job of jobs) {
        try {
          await send([job]);
          await boss.complete(queue, job.id);
          counts.sent += 1;
        } catch (error) {
          await boss.fail(queue, job.id, { message: (error as Error).message });
          counts.failed += 1;
        }
      }
    }
    return counts;
  }
  return {
    async sendMail(db, message) {
      await boss.send(SEND_MAIL, message, { db: fromDrizzle(db, sql) });
    },
    async sendSms(db, message) {
      const smsId = await recordQueuedSms(db, message);
      if (smsId === null) return false;
      const job: SmsJob = { smsId, to: message.to, text: message.text };
      await boss.send(SEND_SMS, job, { db: fromDrizzle(db, sql), ...retriesFor(message) });
      return true;
    },
    async work(options = {}) {
      await boss.work<MailMessage>(
        SEND_MAIL,
        { pollingIntervalSeconds: options.pollingIntervalSeconds ?? 2 },
        sendMail,
      );
      if (sendSms)
        await boss.work<SmsJob>(
          SEND_SMS,
          { pollingIntervalSeconds: options.pollingIntervalSeconds ?? 2 },
          sendSms,
        );
      for (const name of options.scheduled ? SCHEDULED_JOB_NAMES : []) {
        const run = options.scheduled![name];
        await boss.work(
          name,
          {
            pollingIntervalSeconds: options.pollingIntervalSeconds ?? SCHEDULED_POLLING_SECONDS,
            notifyPollingIntervalSeconds: Math.max(
              options.pollingIntervalSeconds ?? SCHEDULED_POLLING_SECONDS,
              NOTIFIED_POLLING_SECONDS,
            ),
          },
          async () => {
            try {
              const count = await run();
              if (count > 0) deps.logger.info("scheduled job done", { job: name, count });
            } catch (error) {
              // Not retried: the next occurrence takes up what this one left (scheduled-work.ts).
              deps.logger.error("scheduled job failed", { job: name, error: String(error) });
              throw error;
            }
          },
        );
      }
    },
    sendDueMail: () => sendDue(SEND_MAIL, sendMail),
    sendDueSms: async () => (sendSms ? sendDue(SEND_SMS, sendSms) : { sent: 0, failed: 0 }),
    async runNow(name) {
      return (await boss.send(name, null)) !== null;
    },
    async schedules() {
      const rows = await boss.getSchedules();
      return rows.map((row) => ({ name: row.name, cron: row.cron, timezone: row.timezone }));
    },
    async stop() {
      await boss.stop({ graceful: true, timeout: 10_000 });
    },
  };
}
