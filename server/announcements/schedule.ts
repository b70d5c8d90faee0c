import { and, gte, isNull, lte, or } from "drizzle-orm";
import { announcements } from "../db/schema.ts";

/** Announcements students see on the college's date `today`: the same rule as announcementState(). */
export const liveOn = (today: string) =>
  and(
    or(isNull(announcements.showFrom), lte(announcements.showFrom, today)),
    or(isNull(announcements.showUntil), gte(announcements.showUntil, today)),
  );
