import { Hono } from "hono";
import { asc, count, eq } from "drizzle-orm";
import type { ApiDeps } from "../deps.ts";
import { libraryItems } from "../db/schema.ts";
import type { ApiEnv } from "../http/context.ts";
import { ApiError } from "../http/errors.ts";
import { readJson, readParams, readQuery } from "../http/validate.ts";
import { changedFields, recordAudit } from "../audit/audit.ts";
import { requireStaff } from "../auth/require-staff.ts";
import { PageQuery } from "../../common/validation/lists.ts";
import {
  LIBRARY_PAGE_SIZE,
  LibraryItemChange,
  LibraryItemParam,
  NewLibraryItemRequest,
  type StaffLibraryItem,
} from "../../common/library/library-admin.ts";

/** The library's items for the administrator: add, edit, hide and show again (decision 106). */
export function libraryStaffRoutes(deps: ApiDeps) {
  const { db, now } = deps;
  const app = new Hono<ApiEnv>();
  const admin = requireStaff(deps, { roles: ["admin"] });

  app.get("/staff/library", admin, async (c) => {
    const { page } = readQuery(c, PageQuery);
    const [total] = await db.select({ rows: count() }).from(libraryItems);
    const rows = await db
      .select()
      .from(libraryItems)
      .orderBy(asc(libraryItems.id))
      .limit(LIBRARY_PAGE_SIZE)
      .offset((page - 1) * LIBRARY_PAGE_SIZE);
    const data: StaffLibraryItem[] = rows.map((row) => ({
      id: row.id,
      description: row.description,
      url: row.url,
      hidden: row.hidden,
      updated_at: row.updatedAt.toISOString(),
    }));
    return c.json({ data, total: total?.rows ?? 0, page, page_size: LIBRARY_PAGE_SIZE });
  });

  app.post("/staff/library", admin, async (c) => {
    const item = await readJson(c, NewLibraryItemRequest);
    const created = await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(libraryItems)
        .values({ ...item, createdAt: now(), updatedAt: now() })
        .returning();
      await recordAudit(
        tx,
        {
          staffId: c.var.staff.id,
          action: "library.create",
          entity: "library_item",
          entityId: row!.id,
          after: item,
        },
        now(),
      );
      return row!;
    });
    return c.json(
      {
        status: "success",
        message: `"${created.description}" added to the library.`,
        data: { id: created.id },
      },
      201,
    );
  });

  app.patch("/staff/library/:id", admin, async (c) => {
    const { id } = readParams(c, LibraryItemParam);
    const change = await readJson(c, LibraryItemChange);
    const saved = await db.transaction(async (tx) => {
      const [existing] = await tx
        .select()
        .from(libraryItems)
        .where(eq(libraryItems.id, id))
        .for("update");
      if (!existing) throw new ApiError(404, "There is no such library item. Reload the list.");
      const diff = changedFields(existing, change);
      if (!diff.changed) return existing;
      const [row] = await tx
        .update(libraryItems)
        .set({ ...change, updatedAt: now() })
        .where(eq(libraryItems.id, id))
        .returning();
      await recordAudit(
        tx,
        {
          staffId: c.var.staff.id,
          action: "library.update",
          entity: "library_item",
          entityId: id,
          before: diff.before,
          after: diff.after,
        },
        now(),
      );
      return row!;
    });
    const message =
      change.hidden === true
        ? `"${saved.description}" is hidden from students.`
        : change.hidden === false
          ? `"${saved.description}" is shown to students again.`
          : `"${saved.description}" saved.`;
    return c.json({ status: "success", message });
  });

  return app;
}
