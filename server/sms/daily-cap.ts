import { sql } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { collegeDate } from "../../common/format/dates.ts";

/**
 * Text messages queued since the Lagos day began, whatever their kind or outcome: what
 * SMS_DAILY_CAP is measured against (decision 201). Lagos is UTC+1 all year.
 */
export async function smsQueuedToday(db: Database, now: Date): Promise<number> {
  const dayBegan = `${collegeDate(now)}T00:00:00+01:00`;
  const result = await db.execute<{ count: number }>(
    sql`select count(*)::int as count from sms_messages where created_at >= ${dayBegan}::timestamptz`,
  );
  return Number(result.rows[0]?.count ?? 0);
}
