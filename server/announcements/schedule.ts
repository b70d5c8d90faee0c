import { and, desc, gte, isNull, lte, or, sql } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { preparedQuery } from "../db/prepared.ts";
import { announcements } from "../db/schema.ts";

// Every dashboard shows them: prepared once, the college's date `today` its one parameter.
const liveAnnouncementsQuery = preparedQuery((db) => {
  const today = sql.placeholder("today");
  return db
    .select({ id: announcements.id, body: announcements.body })
    .from(announcements)
    .where(
      and(
        or(isNull(announcements.showFrom), lte(announcements.showFrom, today)),
        or(isNull(announcements.showUntil), gte(announcements.showUntil, today)),
      ),
    )
    .orderBy(desc(announcements.createdAt), desc(announcements.id))
    .prepare("live_announcements");
});

/**
 * The announcements students see on the college's date `today` (YYYY-MM-DD), newest first: the
 * same rule as announcementState().
 */
export const liveAnnouncements = (db: Database, today: string) =>
  liveAnnouncementsQuery(db).execute({ today });
