import { sql } from "drizzle-orm";
import { fromDrizzle, fromPglite, PgBoss } from "pg-boss";
import type { DatabaseHandle, Transaction } from "../db/client.ts";
import type { Logger } from "../http/logger.ts";
import type { Mailer, MailMessage } from "../mail/mailer.ts";
import { SEND_MAIL, SEND_MAIL_QUEUE, sendMailJob } from "./send-mail.ts";
import { SCHEDULED_JOB_NAMES, SCHEDULED_JOBS, SCHEDULED_POLLING_SECONDS, SCHEDULED_QUEUE, type ScheduledJobName } from "./scheduled-work.ts";

/** The background jobs the API hands over: durable in the database, retried with back-off (decision 096). */
export type JobQueue = {
  /** Queues an e-mail inside `tx`: it is sent only if the transaction commits, and retried until it is. */
  sendMail(tx: Transaction, message: MailMessage): Promise<void>;
};

export type RunningJobQueue = JobQueue & {
  /**
   * Starts taking jobs in this process: mail, and the scheduled work when its handlers are given
   * (server/jobs/scheduled-work.ts). Every serving instance does both; each job still runs once.
   */
  work(options?: { pollingIntervalSeconds?: number; scheduled?: Record<ScheduledJobName, () => Promise<number>> }): Promise<void>;
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
export async function startJobQueue(database: Pick<DatabaseHandle, "jobConnection">, deps: { mailer: Mailer; logger: Logger }): Promise<RunningJobQueue> {
  const connection = database.jobConnection;
  const boss =
    "pglite" in connection
      ? new PgBoss({ db: fromPglite(connection.pglite), backend: "pglite" })
      : new PgBoss({ connectionString: connection.url, max: 3 });
  boss.on("error", (error: Error) => deps.logger.error("job queue error", { error: error.message }));
  await boss.start();
  await boss.createQueue(SEND_MAIL, SEND_MAIL_QUEUE);
  for (const name of SCHEDULED_JOB_NAMES) {
    await boss.createQueue(name, SCHEDULED_QUEUE);
    await boss.schedule(name, SCHEDULED_JOBS[name].cron, null, { tz: "UTC" });
  }
  return {
    async sendMail(tx, message) {
      await boss.send(SEND_MAIL, message, { db: fromDrizzle(tx, sql) });
    },
    async work(options = {}) {
      await boss.work<MailMessage>(SEND_MAIL, { pollingIntervalSeconds: options.pollingIntervalSeconds ?? 2 }, sendMailJob(deps));
      for (const name of options.scheduled ? SCHEDULED_JOB_NAMES : []) {
        const run = options.scheduled![name];
        await boss.work(name, { pollingIntervalSeconds: options.pollingIntervalSeconds ?? SCHEDULED_POLLING_SECONDS }, async () => {
          try {
            const count = await run();
            if (count > 0) deps.logger.info("scheduled job done", { job: name, count });
          } catch (error) {
            // Not retried: the next occurrence takes up what this one left (scheduled-work.ts).
            deps.logger.error("scheduled job failed", { job: name, error: String(error) });
            throw error;
          }
        });
      }
    },
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
