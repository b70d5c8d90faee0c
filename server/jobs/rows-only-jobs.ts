import type { JobQueue } from "./api-jobs.ts";
import { recordQueuedSms } from "./send-sms.ts";

/**
 * For tools that call the API's functions without a job queue (the results bench, load runs):
 * a text message gets its `sms_messages` row as it would, so the work is measured, and no job;
 * mail is dropped.
 */
export const rowsOnlyJobs: JobQueue = {
  async sendMail() {},
  async sendSms(db, message) {
    return (await recordQueuedSms(db, message)) !== null;
  },
};
