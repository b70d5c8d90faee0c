import { Hono } from "hono";
import { eq } from "drizzle-orm";
import { z } from "zod";
import type { ApiDeps } from "../deps.ts";
import type { Database } from "../db/client.ts";
import { sessionPromotions, staff } from "../db/schema.ts";
import type { ApiEnv } from "../http/context.ts";
import { ApiError } from "../http/errors.ts";
import { readJson, readParams, readQuery } from "../http/validate.ts";
import { PromotionRequest } from "../../common/academic-sessions/sessions.ts";
import { requireStaff } from "../auth/require-staff.ts";
import {
  heldStudents,
  promoteStudents,
  promotionGroups,
  promotionMessage,
  promotionStudents,
  totals,
} from "./promotion.ts";
import { runInForce, runView, undoMessage, undoPreview, undoPromotion } from "./promotion-undo.ts";
import { promotionView } from "./session-list.ts";
import { findSessionById, SessionIdParam } from "./session-routes.ts";

const PREVIEW_PAGE_SIZE = 50;
const PageQuery = z.object({ page: z.coerce.number().int().min(1).max(10_000).default(1) });

/** Promotion happens at the start of the current session, never for another one. */
async function currentSessionOnly(db: Database, id: number) {
  const session = await db.transaction((tx) => findSessionById(tx, id));
  if (!session.isCurrent) {
    throw new ApiError(
      400,
      `Promotion is done at the start of the current session; make ${session.name} current first.`,
    );
  }
  return session;
}

/**
 * Preview who moves up a level (and who graduates, and who is held back), then do it once for the
 * session (decision 084); undo it within a week (decision 158).
 */
export function promotionRoutes(deps: ApiDeps) {
  const { db, now } = deps;
  const app = new Hono<ApiEnv>();
  const registry = requireStaff(deps, { roles: ["registry"] });

  async function preview(id: number, page: number, hold: readonly string[]) {
    const session = await currentSessionOnly(db, id);
    const held = await heldStudents(db, hold);
    const heldIds = held.map((student) => student.id);
    const [groups, list, [already], run] = await Promise.all([
      promotionGroups(db, heldIds),
      promotionStudents(db, page, PREVIEW_PAGE_SIZE, heldIds),
      db
        .select({
          at: sessionPromotions.at,
          by: staff.name,
          promoted: sessionPromotions.promoted,
          graduating: sessionPromotions.graduating,
        })
        .from(sessionPromotions)
        .leftJoin(staff, eq(staff.id, sessionPromotions.promotedBy))
        .where(eq(sessionPromotions.sessionId, id)),
      runInForce(db, id),
    ]);
    const { promoted, graduating } = totals(groups);
    return {
      session: session.name,
      already: promotionView(already ?? null),
      run: run ? runView(run) : null,
      promoted,
      graduating,
      held,
      groups,
      students: list,
      total: promoted + graduating,
      page,
      page_size: PREVIEW_PAGE_SIZE,
    };
  }

  app.get(
    "/staff/sessions/:id/promotion",
    requireStaff(deps, { roles: ["registry", "admin"] }),
    async (c) => {
      const { id } = readParams(c, SessionIdParam);
      const { page } = readQuery(c, PageQuery);
      return c.json(await preview(id, page, []));
    },
  );

  // A POST only because a list of hundreds of matriculation numbers does not fit an address; it changes nothing.
  app.post("/staff/sessions/:id/promotion/check", registry, async (c) => {
    const { id } = readParams(c, SessionIdParam);
    const { page } = readQuery(c, PageQuery);
    const { hold } = await readJson(c, PromotionRequest);
    return c.json(await preview(id, page, hold));
  });

  app.post("/staff/sessions/:id/promotion", registry, async (c) => {
    const { id } = readParams(c, SessionIdParam);
    const { hold } = await readJson(c, PromotionRequest);
    const session = await currentSessionOnly(db, id);
    const result = await promoteStudents(db, session, c.var.staff.id, hold, now());
    return c.json({
      status: "success",
      message: promotionMessage(session.name, result),
      data: result,
    });
  });

  app.get("/staff/sessions/:id/promotion/undo", registry, async (c) => {
    const { id } = readParams(c, SessionIdParam);
    const session = await db.transaction((tx) => findSessionById(tx, id));
    return c.json(await undoPreview(db, session, now()));
  });

  app.post("/staff/sessions/:id/promotion/undo", registry, async (c) => {
    const { id } = readParams(c, SessionIdParam);
    const result = await undoPromotion(db, id, c.var.staff.id, now());
    return c.json({
      status: "success",
      message: undoMessage(result.session, result),
      data: { restored: result.restored, kept: result.kept },
    });
  });

  return app;
}
