import { sql } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import type { MailMessage } from "../mail/mailer.ts";

/** A send-mail job as pg-boss holds it; `waits` is true while its retry is more than 30 s away. */
export type MailJob = { state: string; waits: boolean; data: MailMessage };

/** The send-mail jobs pg-boss holds, oldest first. */
export async function mailJobs(db: Database): Promise<MailJob[]> {
  const result = await db.execute(sql`
    select state, start_after > now() + interval '30 seconds' as waits, data
    from pgboss.job where name = 'send-mail' order by created_on, id`);
  return result.rows as MailJob[];
}

/** The jobs queued for `to`, oldest first. */
export async function mailJobsTo(db: Database, to: string) {
  return (await mailJobs(db)).filter((job) => job.data.to === to);
}

/** Makes every send-mail job that waits for a retry due now, as if its back-off had passed. */
export async function endMailBackOff(db: Database) {
  await db.execute(
    sql`update pgboss.job set start_after = now() where name = 'send-mail' and state = 'retry'`,
  );
}
