import { sql } from "drizzle-orm";
import { fromDrizzle, fromPglite, PgBoss } from "pg-boss";
import type { DatabaseHandle, Transaction } from "../db/client.ts";
import type { Logger } from "../http/logger.ts";
import type { Mailer, MailMessage } from "../mail/mailer.ts";
import { SEND_MAIL, SEND_MAIL_QUEUE, sendMailJob } from "./send-mail.ts";

/** The background jobs the API hands over: durable in the database, retried with back-off (decision 096). */
export type JobQueue = {
  /** Queues an e-mail inside `tx`: it is sent only if the transaction commits, and retried until it is. */
  sendMail(tx: Transaction, message: MailMessage): Promise<void>;
};

export type RunningJobQueue = JobQueue & {
  /** Starts taking jobs in this process (every API instance may; each job runs once). */
  work(options?: { pollingIntervalSeconds?: number }): Promise<void>;
  stop(): Promise<void>;
};

/**
 * Starts pg-boss on the portal's own database: on PGlite through the same embedded instance, on
 * PostgreSQL through its own small pool. Its tables live in the `pgboss` schema it migrates itself.
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
  return {
    async sendMail(tx, message) {
      await boss.send(SEND_MAIL, message, { db: fromDrizzle(tx, sql) });
    },
    async work(options = {}) {
      await boss.work<MailMessage>(SEND_MAIL, { pollingIntervalSeconds: options.pollingIntervalSeconds ?? 2 }, sendMailJob(deps));
    },
    async stop() {
      await boss.stop({ graceful: true, timeout: 10_000 });
    },
  };
}
