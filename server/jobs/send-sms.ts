import { and, eq, sql } from "drizzle-orm";
import type { Job, Queue } from "pg-boss";
import type { Database, Transaction } from "../db/client.ts";
import { smsMessages } from "../db/schema.ts";
import type { Logger } from "../http/logger.ts";
import { SmsRefused, type SmsSender } from "../sms/sms-message.ts";

export const SEND_SMS = "send-sms";

/** A text message as the API queues it. */
export type QueuedSms = {
  /** One message per key (sms_messages.idempotency_key), e.g. "reset-code:42". */
  key: string;
  /** The template it was made from: "reset-code". */
  kind: string;
  studentId: number | null;
  /** The number in international form, +234…. */
  to: string;
  text: string;
  /**
   * How long it is worth sending: a code that dies in ten minutes is not retried for a day.
   * Unset: the queue's own retries (SEND_SMS_QUEUE).
   */
  retryForSeconds?: number;
};

/** What a job carries: the row it reports to, and the message (kept by the queue, never logged). */
export type SmsJob = { smsId: number; to: string; text: string };

/**
 * A provider that is down for hours must not lose a receipt: retries doubling from a minute, as
 * mail's. Polled every 2 s like mail: a code is waited for with the page open.
 */
export const SEND_SMS_QUEUE: Omit<Queue, "name"> = {
  retryLimit: 10,
  retryDelay: 60,
  retryBackoff: true,
  retryDelayMax: 60 * 60,
  expireInSeconds: 60,
  deleteAfterSeconds: 7 * 24 * 60 * 60,
  notify: false,
};

/**
 * The row that makes the message one message, written in the caller's transaction; null when the
 * key was queued before (then no second job is queued either).
 */
export async function recordQueuedSms(
  db: Database | Transaction,
  message: QueuedSms,
): Promise<number | null> {
  const [row] = await db
    .insert(smsMessages)
    .values({ idempotencyKey: message.key, kind: message.kind, studentId: message.studentId })
    .onConflictDoNothing({ target: smsMessages.idempotencyKey })
    .returning({ id: smsMessages.id });
  return row?.id ?? null;
}

/** The retry options of one job: short ones for a message only worth sending for a while. */
export function retriesFor(message: QueuedSms) {
  if (message.retryForSeconds === undefined) return {};
  // Every 15 s, doubling, until the message is no longer worth sending.
  const retryDelay = 15;
  let retryLimit = 0;
  for (let waited = 0; waited + retryDelay * 2 ** retryLimit <= message.retryForSeconds;)
    waited += retryDelay * 2 ** retryLimit++;
  return { retryLimit, retryDelay, retryBackoff: true };
}

/**
 * The worker: sends each message once. A row already marked sent (the job ran, the provider took
 * it, and the job's completion was lost) is not sent again; a refusal the provider will repeat is
 * recorded and not retried; anything else is thrown so pg-boss tries again. Logs name the
 * message's row (which names the student), never the number or the text.
 */
export function sendSmsJob(deps: { sms: SmsSender; db: Database; logger: Logger }) {
  return async (jobs: Job<SmsJob>[]) => {
    for (const job of jobs) {
      const { smsId, to, text } = job.data;
      const [row] = await deps.db
        .select({ status: smsMessages.status })
        .from(smsMessages)
        .where(eq(smsMessages.id, smsId));
      if (!row || row.status !== "queued") continue;
      try {
        const receipt = await deps.sms.send({ to, text });
        await deps.db
          .update(smsMessages)
          .set({
            status: "sent",
            providerMessageId: receipt.providerMessageId,
            cost: receipt.cost ?? null,
            sentAt: sql`now()`,
          })
          .where(and(eq(smsMessages.id, smsId), eq(smsMessages.status, "queued")));
      } catch (error) {
        if (error instanceof SmsRefused) {
          deps.logger.warn("text message refused by the provider; not retried", {
            job: job.id,
            sms: smsId,
            error: error.message,
          });
          await deps.db
            .update(smsMessages)
            .set({ status: "refused" })
            .where(eq(smsMessages.id, smsId));
          continue;
        }
        deps.logger.warn("text message not sent; will retry", {
          job: job.id,
          sms: smsId,
          error: (error as Error).message,
        });
        throw error;
      }
    }
  };
}
