import { sql } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { waitingLineAdmissions } from "../db/schema.ts";
import type { LineNumbers, WaitingLineStore } from "../../proxy/waiting-line/line-store.ts";

/**
 * The line at the door kept in the database every proxy reaches (decision 193). A sequence
 * numbers the tickets (no lock: arrivals on every proxy at once do not wait on each other); one
 * row holds how far the line has been admitted. Each call is one statement.
 */
export function databaseLineStore(db: Database): WaitingLineStore {
  const issued = sql`(select case when is_called then last_value else 0 end from waiting_line_tickets)`;
  const numbersOf = (rows: { rows: Record<string, unknown>[] }): LineNumbers => {
    const row = rows.rows[0]!;
    return {
      issuedThrough: Number(row.issued_through),
      admittedThrough: Number(row.admitted_through),
      held: row.held_since !== null,
    };
  };
  return {
    async join() {
      const result = await db.execute<{ ticket: string }>(
        sql`select nextval('waiting_line_tickets') as ticket`,
      );
      return Number(result.rows[0]!.ticket);
    },
    async read() {
      return numbersOf(
        await db.execute(
          sql`select admitted_through, held_since, ${issued} as issued_through from waiting_line where id = 1`,
        ),
      );
    },
    async admit(tickets) {
      return numbersOf(
        await db.execute(sql`
          update waiting_line
          set admitted_through = case when held_since is null
                then greatest(admitted_through, least(admitted_through + ${tickets}, ${issued}))
                else admitted_through end,
              updated_at = now()
          where id = 1
          returning admitted_through, held_since, ${issued} as issued_through`),
      );
    },
    async exchange(ticket) {
      const inserted = await db
        .insert(waitingLineAdmissions)
        .values({ ticket })
        .onConflictDoNothing()
        .returning({ ticket: waitingLineAdmissions.ticket });
      return inserted.length === 1;
    },
  };
}

/** Holds the door or lets it go (the development hook); the proxies see it within a second. */
export async function holdTheDoor(db: Database, hold: boolean) {
  await db.execute(
    sql`update waiting_line set held_since = ${hold ? sql`coalesce(held_since, now())` : null}, updated_at = now() where id = 1`,
  );
}
