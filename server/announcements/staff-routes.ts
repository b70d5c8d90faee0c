import { Hono } from "hono";
import { count, desc, eq } from "drizzle-orm";
import type { ApiDeps } from "../deps.ts";
import type { Transaction } from "../db/client.ts";
import { announcements } from "../db/schema.ts";
import type { ApiEnv } from "../http/context.ts";
import { ApiError } from "../http/errors.ts";
import { readJson, readParams, readQuery } from "../http/validate.ts";
import { changedFields, recordAudit } from "../audit/audit.ts";
import { requireStaff } from "../auth/require-staff.ts";
import { collegeDate } from "../../common/format/dates.ts";
import { spelledDate } from "../../common/courses/registration-window.ts";
import { PageQuery } from "../../common/validation/lists.ts";
import {
  ANNOUNCEMENTS_PAGE_SIZE,
  AnnouncementIdParam,
  AnnouncementRequest,
  announcementState,
  type StaffAnnouncement,
} from "../../common/announcements/announcement.ts";

type Row = typeof announcements.$inferSelect;

const audited = (row: Pick<Row, "body" | "showFrom" | "showUntil">) => ({
  body: row.body,
  show_from: row.showFrom,
  show_until: row.showUntil,
});

async function lockAnnouncement(tx: Transaction, id: number) {
  const [row] = await tx.select().from(announcements).where(eq(announcements.id, id)).for("update");
  if (!row) throw new ApiError(404, "There is no such announcement. Reload the list.");
  return row;
}

/** A last day already behind us would save an announcement nobody ever sees. */
function refusePastEnd(request: AnnouncementRequest, today: string) {
  if (request.show_until && request.show_until < today) {
    throw new ApiError(
      400,
      "The last day to show it has already passed. Choose today or later, or leave it empty.",
      {
        fields: { show_until: "Already passed." },
      },
    );
  }
}

/** Announcements for the dashboard's newsfeed: write, schedule, edit and delete (decision 106). */
export function announcementStaffRoutes(deps: ApiDeps) {
  const { db, now } = deps;
  const app = new Hono<ApiEnv>();
  const admin = requireStaff(deps, { roles: ["admin"] });

  app.get("/staff/announcements", admin, async (c) => {
    const { page } = readQuery(c, PageQuery);
    const today = collegeDate(now());
    const [total] = await db.select({ rows: count() }).from(announcements);
    const rows = await db
      .select()
      .from(announcements)
      .orderBy(desc(announcements.createdAt), desc(announcements.id))
      .limit(ANNOUNCEMENTS_PAGE_SIZE)
      .offset((page - 1) * ANNOUNCEMENTS_PAGE_SIZE);
    const data: StaffAnnouncement[] = rows.map((row) => {
      const shown = { show_from: row.showFrom, show_until: row.showUntil };
      return {
        id: row.id,
        body: row.body,
        ...shown,
        state: announcementState(shown, today),
        created_at: row.createdAt.toISOString(),
        updated_at: row.updatedAt.toISOString(),
      };
    });
    return c.json({
      data,
      total: total?.rows ?? 0,
      page,
      page_size: ANNOUNCEMENTS_PAGE_SIZE,
      today,
    });
  });

  app.post("/staff/announcements", admin, async (c) => {
    const request = await readJson(c, AnnouncementRequest);
    const today = collegeDate(now());
    refusePastEnd(request, today);
    const values = {
      body: request.body,
      showFrom: request.show_from,
      showUntil: request.show_until,
    };
    const created = await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(announcements)
        .values({ ...values, createdAt: now(), updatedAt: now() })
        .returning();
      await recordAudit(
        tx,
        {
          staffId: c.var.staff.id,
          action: "announcement.create",
          entity: "announcement",
          entityId: row!.id,
          after: audited(values),
        },
        now(),
      );
      return row!;
    });
    const state = announcementState(request, today);
    const message =
      state === "scheduled"
        ? `Announcement saved. Students see it from ${spelledDate(request.show_from!)}.`
        : "Announcement published on the dashboard.";
    return c.json({ status: "success", message, data: { id: created.id, state } }, 201);
  });

  app.put("/staff/announcements/:id", admin, async (c) => {
    const { id } = readParams(c, AnnouncementIdParam);
    const request = await readJson(c, AnnouncementRequest);
    const today = collegeDate(now());
    await db.transaction(async (tx) => {
      const existing = await lockAnnouncement(tx, id);
      const values = {
        body: request.body,
        showFrom: request.show_from,
        showUntil: request.show_until,
      };
      // An ended announcement can still be corrected as long as its last day is left alone.
      if (request.show_until !== existing.showUntil) refusePastEnd(request, today);
      const diff = changedFields(audited(existing), audited(values));
      if (!diff.changed) return;
      await tx
        .update(announcements)
        .set({ ...values, updatedAt: now() })
        .where(eq(announcements.id, id));
      await recordAudit(
        tx,
        {
          staffId: c.var.staff.id,
          action: "announcement.update",
          entity: "announcement",
          entityId: id,
          before: diff.before,
          after: diff.after,
        },
        now(),
      );
    });
    return c.json({ status: "success", message: "Announcement saved." });
  });

  app.delete("/staff/announcements/:id", admin, async (c) => {
    const { id } = readParams(c, AnnouncementIdParam);
    const deleted = await db.transaction(async (tx) => {
      const existing = await lockAnnouncement(tx, id);
      await tx.delete(announcements).where(eq(announcements.id, id));
      // The audit row keeps the text: a deleted announcement can be read again, and restored by hand.
      await recordAudit(
        tx,
        {
          staffId: c.var.staff.id,
          action: "announcement.delete",
          entity: "announcement",
          entityId: id,
          before: audited(existing),
        },
        now(),
      );
      return existing;
    });
    return c.json({
      status: "success",
      message: `Announcement deleted: students no longer see “${excerpt(deleted.body)}”. The audit log keeps its text.`,
    });
  });

  return app;
}

/** The start of an announcement, to name it in a sentence. */
export function excerpt(body: string, length = 60) {
  const line = body.replace(/\s+/g, " ").trim();
  return line.length <= length ? line : `${line.slice(0, length - 1).trimEnd()}…`;
}
