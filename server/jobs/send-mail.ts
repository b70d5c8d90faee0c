import type { Job, Queue } from "pg-boss";
import type { Logger } from "../http/logger.ts";
import type { Mailer, MailMessage } from "../mail/mailer.ts";

export const SEND_MAIL = "send-mail";

/**
 * A mail server that is down for a day must not lose a receipt: up to 12 retries, the wait
 * doubling from one minute and capped at six hours (about 40 hours in all), then the job is
 * kept as failed for a week where an operator can see and retry it.
 */
export const SEND_MAIL_QUEUE: Omit<Queue, "name"> = {
  retryLimit: 12,
  retryDelay: 60,
  retryBackoff: true,
  retryDelayMax: 6 * 60 * 60,
  expireInSeconds: 5 * 60,
  deleteAfterSeconds: 7 * 24 * 60 * 60,
  // Polled every 2 s, not woken by NOTIFY: one notice can stand for a burst of receipts, and a
  // worker that takes one job a fetch would leave the rest for its slow backstop (decision 195).
  notify: false,
};

/** The worker: one message per job; a failure is logged (no body, no password) and thrown so pg-boss retries. */
export function sendMailJob(deps: { mailer: Mailer; logger: Logger }) {
  return async (jobs: Job<MailMessage>[]) => {
    for (const job of jobs) {
      try {
        await deps.mailer.send(job.data);
      } catch (error) {
        deps.logger.warn("mail not sent; will retry", {
          job: job.id,
          subject: job.data.subject,
          error: (error as Error).message,
        });
        throw error;
      }
    }
  };
}
