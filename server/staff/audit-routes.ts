import { Hono } from "hono";
import { and, count, desc, eq, gte, lt, type SQL } from "drizzle-orm";
import { z } from "zod";
import { RecordId } from "../../src/lib/validation/lists.ts";
import type { ApiDeps } from "../app.ts";
import { auditLog, staff } from "../db/schema.ts";
import type { ApiEnv } from "../http/context.ts";
import { readQuery } from "../http/validate.ts";
import { requireStaff } from "./require-staff.ts";

const day = z.iso.date({ error: "Dates are written YYYY-MM-DD." });

export const AuditQuery = z.object({
  staff_id: RecordId("Choose a staff member from the list.").optional(),
  entity: z.string().trim().max(40).optional(),
  entity_id: z.string().trim().max(60).optional(),
  action: z.string().trim().max(60).optional(),
  from: day.optional(),
  to: day.optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
});

export const AUDIT_PAGE_SIZE = 50;

/** The audit log, newest first, filtered and paged on the server. Read-only: there is no route that changes it. */
export function auditRoutes(deps: ApiDeps) {
  const { db } = deps;
  const app = new Hono<ApiEnv>();

  app.get("/staff/audit", requireStaff(deps, { roles: ["admin", "registry"] }), async (c) => {
    const query = readQuery(c, AuditQuery);
    const filters: SQL[] = [];
    if (query.staff_id) filters.push(eq(auditLog.staffId, query.staff_id));
    if (query.entity) filters.push(eq(auditLog.entity, query.entity));
    if (query.entity_id) filters.push(eq(auditLog.entityId, query.entity_id));
    if (query.action) filters.push(eq(auditLog.action, query.action));
    if (query.from) filters.push(gte(auditLog.at, new Date(`${query.from}T00:00:00Z`)));
    if (query.to) filters.push(lt(auditLog.at, new Date(new Date(`${query.to}T00:00:00Z`).getTime() + 86_400_000)));
    const where = filters.length ? and(...filters) : undefined;
    const [total] = await db.select({ rows: count() }).from(auditLog).where(where);
    const rows = await db
      .select({ entry: auditLog, by: staff.name })
      .from(auditLog)
      .leftJoin(staff, eq(staff.id, auditLog.staffId))
      .where(where)
      .orderBy(desc(auditLog.at), desc(auditLog.id))
      .limit(AUDIT_PAGE_SIZE)
      .offset((query.page - 1) * AUDIT_PAGE_SIZE);
    return c.json({
      data: rows.map(({ entry, by }) => ({
        id: entry.id,
        at: entry.at.toISOString(),
        staff_id: entry.staffId,
        // No staff member: Paystack caused the change (a reversal, decision 102).
        staff_name: by ?? "Paystack (automatic)",
        action: entry.action,
        entity: entry.entity,
        entity_id: entry.entityId,
        before: entry.before,
        after: entry.after,
      })),
      total: total?.rows ?? 0,
      page: query.page,
      page_size: AUDIT_PAGE_SIZE,
    });
  });

  return app;
}
