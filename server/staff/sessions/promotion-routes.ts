import { Hono } from "hono";
import { eq } from "drizzle-orm";
import { z } from "zod";
import type { ApiDeps } from "../../app.ts";
import type { Database } from "../../db/client.ts";
import { sessionPromotions, staff } from "../../db/schema.ts";
import type { ApiEnv } from "../../http/context.ts";
import { ApiError } from "../../http/errors.ts";
import { readParams, readQuery } from "../../http/validate.ts";
import { requireStaff } from "../require-staff.ts";
import { promoteStudents, promotionGroups, promotionStudents, totals } from "./promotion.ts";
import { promotionView } from "./session-list.ts";
import { findSessionById, SessionIdParam } from "./session-routes.ts";

const PREVIEW_PAGE_SIZE = 50;
const PageQuery = z.object({ page: z.coerce.number().int().min(1).max(10_000).default(1) });

/** Promotion happens at the start of the current session, never for another one. */
async function currentSessionOnly(db: Database, id: number) {
  const session = await db.transaction((tx) => findSessionById(tx, id));
  if (!session.isCurrent) {
    throw new ApiError(400, `Promotion is done at the start of the current session; make ${session.name} current first.`);
  }
  return session;
}

/** Preview who moves up a level (and who graduates), then do it once for the session (decision 084). */
export function promotionRoutes(deps: ApiDeps) {
  const { db, now } = deps;
  const app = new Hono<ApiEnv>();

  app.get("/staff/sessions/:id/promotion", requireStaff(deps, { roles: ["registry", "admin"] }), async (c) => {
    const { id } = readParams(c, SessionIdParam);
    const { page } = readQuery(c, PageQuery);
    const session = await currentSessionOnly(db, id);
    const [groups, list, [already]] = await Promise.all([
      promotionGroups(db),
      promotionStudents(db, page, PREVIEW_PAGE_SIZE),
      db
        .select({ at: sessionPromotions.at, by: staff.name, promoted: sessionPromotions.promoted, graduating: sessionPromotions.graduating })
        .from(sessionPromotions)
        .leftJoin(staff, eq(staff.id, sessionPromotions.promotedBy))
        .where(eq(sessionPromotions.sessionId, id)),
    ]);
    const { promoted, graduating } = totals(groups);
    return c.json({
      session: session.name,
      already: promotionView(already ?? null),
      promoted,
      graduating,
      groups,
      students: list,
      total: promoted + graduating,
      page,
      page_size: PREVIEW_PAGE_SIZE,
    });
  });

  app.post("/staff/sessions/:id/promotion", requireStaff(deps, { roles: ["registry"] }), async (c) => {
    const { id } = readParams(c, SessionIdParam);
    const session = await currentSessionOnly(db, id);
    const result = await promoteStudents(db, session, c.var.staff.id, now());
    const message = `${result.promoted} student${result.promoted === 1 ? "" : "s"} moved up a level for ${session.name}; ${result.graduating} marked as graduating.`;
    return c.json({ status: "success", message, data: result });
  });

  return app;
}
