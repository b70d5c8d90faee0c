import { z } from "zod";
import { IdParam, Paged } from "../validation/lists.ts";

export const ANNOUNCEMENT_LIMIT = 1000;

/**
 * Staff write plain text: line breaks are kept (one blank line at most), other control characters
 * and trailing spaces go. Pages print it as text, never as HTML, so markup shows as typed.
 */
export function plainText(text: string) {
  return text
    .replace(/\r\n?/g, "\n")
    .replace(/\t/g, " ")
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, "")
    .replace(/[ \u00a0]+$/gm, "")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

const day = z.iso.date({ error: "Write dates as YYYY-MM-DD." });
/** An empty date field means no bound on that side. */
const optionalDay = z.union([z.literal("").transform(() => null), z.null(), day]).default(null);

/** POST /staff/announcements and PUT /staff/announcements/{id}: the whole announcement. */
export const AnnouncementRequest = z
  .object({
    body: z
      .string({ error: "Write the announcement." })
      .transform(plainText)
      .pipe(
        z
          .string()
          .min(1, "Write the announcement.")
          .max(
            ANNOUNCEMENT_LIMIT,
            `Keep the announcement to ${ANNOUNCEMENT_LIMIT} characters or fewer.`,
          ),
      ),
    show_from: optionalDay,
    show_until: optionalDay,
  })
  .refine((a) => !a.show_from || !a.show_until || a.show_from <= a.show_until, {
    message: "The last day to show it must be on or after the first day.",
    path: ["show_until"],
  });
export type AnnouncementRequest = z.infer<typeof AnnouncementRequest>;

/** Whether students see an announcement on the college's date `today`: not yet, now, or no longer. */
export type AnnouncementState = "scheduled" | "live" | "ended";

export function announcementState(
  a: { show_from: string | null; show_until: string | null },
  today: string,
): AnnouncementState {
  if (a.show_from && today < a.show_from) return "scheduled";
  if (a.show_until && today > a.show_until) return "ended";
  return "live";
}

export const ANNOUNCEMENT_STATE_LABELS: Record<AnnouncementState, string> = {
  scheduled: "Scheduled",
  live: "Live",
  ended: "Ended",
};

export const StaffAnnouncement = z.object({
  id: z.number(),
  body: z.string(),
  show_from: z.string().nullable(),
  show_until: z.string().nullable(),
  state: z.enum(["scheduled", "live", "ended"]),
  created_at: z.string(),
  updated_at: z.string(),
});
export type StaffAnnouncement = z.infer<typeof StaffAnnouncement>;

export const ANNOUNCEMENTS_PAGE_SIZE = 20;

/** GET /staff/announcements: newest first, every state. */
export const StaffAnnouncementPage = Paged(StaffAnnouncement).extend({
  /** The college's date the states were worked out for. */
  today: z.string(),
});
export type StaffAnnouncementPage = z.infer<typeof StaffAnnouncementPage>;

export const AnnouncementIdParam = IdParam("There is no such announcement.");

/** What the dashboard's newsfeed reads: the announcements showing today. */
export const ShownAnnouncements = z.array(z.object({ id: z.number(), body: z.string() }));
