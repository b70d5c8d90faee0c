import { sql } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import type { SmsUsageDay } from "../../common/sms/sms-usage.ts";

/**
 * Text messages per day in Lagos, newest first, over the last `days` days: sent, refused and still
 * waiting, and the sum of the costs the provider reported for those sent. Costs come as text
 * ("NGN 2.2000"); a day's are summed per currency, which on one account is one.
 */
export async function smsUsageByDay(db: Database, days: number, now: Date): Promise<SmsUsageDay[]> {
  const since = new Date(now.getTime() - days * 24 * 60 * 60_000);
  const result = await db.execute<{
    day: string;
    sent: number;
    refused: number;
    waiting: number;
    currency: string | null;
    cost: string | null;
  }>(sql`
    select to_char(created_at at time zone 'Africa/Lagos', 'YYYY-MM-DD') as day,
           count(*) filter (where status = 'sent')::int as sent,
           count(*) filter (where status = 'refused')::int as refused,
           count(*) filter (where status = 'queued')::int as waiting,
           min(split_part(cost, ' ', 1)) filter (where status = 'sent' and cost is not null) as currency,
           sum(nullif(split_part(cost, ' ', 2), '')::numeric) filter (where status = 'sent')::text as cost
      from sms_messages
     where created_at >= ${since.toISOString()}::timestamptz
     group by 1
     order by 1 desc`);
  return result.rows.map((row) => ({
    day: row.day,
    sent: row.sent,
    refused: row.refused,
    waiting: row.waiting,
    cost:
      row.cost === null || row.currency === null
        ? null
        : `${row.currency} ${Number(row.cost).toFixed(2)}`,
  }));
}
