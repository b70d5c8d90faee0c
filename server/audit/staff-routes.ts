import { Hono } from "hono";
import { and, count, desc, eq, gte, lt, or, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import { RecordId } from "../../common/validation/lists.ts";
import type { ApiDeps } from "../deps.ts";
import { auditLog, staff } from "../db/schema.ts";
import type { ApiEnv } from "../http/context.ts";
import { readQuery } from "../http/validate.ts";
import { describeAuditRows } from "./audit-records.ts";
import { auditWalls } from "./audit-walls.ts";
import { requireStaff } from "../auth/require-staff.ts";

const day = z.iso.date({ error: "Dates are written YYYY-MM-DD." });
const rowId = z.coerce
  .number({ error: "Give a number." })
  .int("Give a whole number.")
  .positive("Give a number above 0.")
  .max(2_147_483_647, "There is no such number.");

export const AuditQuery = z
  .object({
    matric_no: z.string().trim().max(40, "A matric number is at most 40 characters.").optional(),
    staff_email: z
      .string()
      .trim()
      .toLowerCase()
      .max(200, "That e-mail address is too long.")
      .optional(),
    action: z.string().trim().max(60, "An action is at most 60 characters.").optional(),
    staff_id: RecordId("Choose a staff member from the list.").optional(),
    entity: z.string().trim().max(40).optional(),
    entity_id: z.string().trim().max(60).optional(),
    part_of: rowId.optional(),
    from: day.optional(),
    to: day.optional(),
    page: z.coerce
      .number({ error: "Give a page number." })
      .int()
      .min(1)
      .max(10_000, "There are not that many pages.")
      .default(1),
  })
  .refine((query) => !query.from || !query.to || query.from <= query.to, {
    path: ["to"],
    message: "The end date is before the start date.",
  });

export const AUDIT_PAGE_SIZE = 50;

// Days are the college's: Africa/Lagos, UTC+1 all year.
const lagosMidnight = (date: string) => new Date(`${date}T00:00:00+01:00`);

/** The rows about one student: their record, registrations, complaints and payments, and what they did themselves. */
function aboutStudentsWithMatric(matricNo: string): SQL {
  const ids = sql`(select id from students where lower(matric_no) = lower(${matricNo}) or lower(application_no) = lower(${matricNo}))`;
  return sql`(
    (${auditLog.entity} = 'student' and ${auditLog.entityId} in (select id::text from ${ids} as s))
    or (${auditLog.entity} = 'course_registration' and split_part(${auditLog.entityId}, ':', 1) in (select id::text from ${ids} as s))
    or (${auditLog.entity} = 'complaint' and ${auditLog.entityId} in (select ticket from complaints where student_id in ${ids}))
    or (${auditLog.entity} = 'payment' and ${auditLog.entityId} in (select reference from payments where student_id in ${ids}))
    or ${auditLog.byStudentId} in ${ids}
  )`;
}

/** The rows a staff member did, and those about their account. */
function byOrAboutStaff(email: string): SQL {
  const ids = sql`(select id from ${staff} where ${staff.email} = ${email})`;
  return sql`(${auditLog.staffId} in ${ids} or (${auditLog.entity} = 'staff' and ${auditLog.entityId} in (select id::text from ${ids} as m)))`;
}

/**
 * The audit log, newest first, filtered and paged on the server, inside the reader's walls
 * (audit-walls.ts): every role reads it, each only the rows of records it may read. Read-only:
 * there is no route that changes it.
 */
export function auditStaffRoutes(deps: ApiDeps) {
  const { db } = deps;
  const app = new Hono<ApiEnv>();

  app.get("/staff/audit", requireStaff(deps), async (c) => {
    const query = readQuery(c, AuditQuery);
    const walls = auditWalls(c.var.staff);
    const filters: SQL[] = [walls.visible];
    if (query.matric_no) filters.push(aboutStudentsWithMatric(query.matric_no));
    if (query.staff_email) filters.push(byOrAboutStaff(query.staff_email));
    if (query.staff_id) filters.push(eq(auditLog.staffId, query.staff_id));
    if (query.entity) filters.push(eq(auditLog.entity, query.entity));
    if (query.entity_id) filters.push(eq(auditLog.entityId, query.entity_id));
    if (query.action) filters.push(eq(auditLog.action, query.action));
    if (query.part_of)
      filters.push(or(eq(auditLog.partOf, query.part_of), eq(auditLog.id, query.part_of))!);
    if (query.from) filters.push(gte(auditLog.at, lagosMidnight(query.from)));
    if (query.to)
      filters.push(lt(auditLog.at, new Date(lagosMidnight(query.to).getTime() + 86_400_000)));
    const where = and(...filters);
    const [total] = await db.select({ rows: count() }).from(auditLog).where(where);
    const rows = await db
      .select({
        id: auditLog.id,
        at: auditLog.at,
        staffId: auditLog.staffId,
        byStudentId: auditLog.byStudentId,
        action: auditLog.action,
        entity: auditLog.entity,
        entityId: auditLog.entityId,
        partOf: auditLog.partOf,
        before: walls.before,
        after: walls.after,
        hidden: walls.hidden,
        // A summary row counts the rows of its import, for the link to them.
        parts: sql<number>`(select count(*)::int from audit_log part where part.part_of = "audit_log"."id")`,
      })
      .from(auditLog)
      .where(where)
      .orderBy(desc(auditLog.at), desc(auditLog.id))
      .limit(AUDIT_PAGE_SIZE)
      .offset((query.page - 1) * AUDIT_PAGE_SIZE);
    const names = await describeAuditRows(db, rows);
    return c.json({
      data: rows.map((entry, index) => ({
        id: entry.id,
        at: entry.at.toISOString(),
        staff_id: entry.staffId,
        staff_name: names[index]!.by,
        action: entry.action,
        entity: entry.entity,
        entity_id: entry.entityId,
        record: names[index]!.record,
        before: entry.before,
        after: entry.after,
        hidden: entry.hidden,
        part_of: entry.partOf,
        parts: entry.parts,
      })),
      total: total?.rows ?? 0,
      page: query.page,
      page_size: AUDIT_PAGE_SIZE,
    });
  });

  return app;
}
