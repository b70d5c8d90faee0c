import { Hono } from "hono";
import { eq } from "drizzle-orm";
import { z } from "zod";
import { RecordId } from "../../common/validation/lists.ts";
import type { ApiDeps } from "../deps.ts";
import type { Transaction } from "../db/client.ts";
import { academicSessions } from "../db/schema.ts";
import type { ApiEnv } from "../http/context.ts";
import { ApiError } from "../http/errors.ts";
import { readJson, readParams, readQuery } from "../http/validate.ts";
import {
  CreateSessionRequest,
  madeCurrentMessage,
  RegistrationWindowRequest,
} from "../../common/academic-sessions/sessions.ts";
import { changedFields, recordAudit } from "../audit/audit.ts";
import { requireStaff } from "../auth/require-staff.ts";
import { withUniqueNames } from "../structure/structure-checks.ts";
import { sessionPage } from "./session-list.ts";

export const SessionIdParam = z.object({ id: RecordId("No such session.") });
const PageQuery = z.object({ page: z.coerce.number().int().min(1).max(1000).default(1) });

export async function findSessionById(tx: Transaction, id: number) {
  const [session] = await tx.select().from(academicSessions).where(eq(academicSessions.id, id));
  if (!session) throw new ApiError(404, "There is no such session. Reload the list.");
  return session;
}

/** Sessions for the registry: create the next, mark one current, open and close registration (decision 084). */
export function sessionRoutes(deps: ApiDeps) {
  const { db, now } = deps;
  const app = new Hono<ApiEnv>();
  const registry = requireStaff(deps, { roles: ["registry"] });

  app.get("/staff/sessions", requireStaff(deps, { roles: ["registry", "admin"] }), async (c) =>
    c.json(await sessionPage(db, readQuery(c, PageQuery).page, now())),
  );

  app.post("/staff/sessions", registry, async (c) => {
    const { name } = await readJson(c, CreateSessionRequest);
    const created = await withUniqueNames(() =>
      db.transaction(async (tx) => {
        const [taken] = await tx
          .select({ id: academicSessions.id })
          .from(academicSessions)
          .where(eq(academicSessions.name, name));
        if (taken)
          throw new ApiError(409, `The ${name} session already exists.`, {
            fields: { name: "Already exists." },
          });
        // A college with no current session gets one at once: fees and registration always have a default.
        const [current] = await tx
          .select({ id: academicSessions.id })
          .from(academicSessions)
          .where(eq(academicSessions.isCurrent, true));
        const [row] = await tx
          .insert(academicSessions)
          .values({ name, isCurrent: !current })
          .returning();
        const after = { name, is_current: row!.isCurrent, course_modifiable: false };
        await recordAudit(
          tx,
          {
            staffId: c.var.staff.id,
            action: "session.create",
            entity: "academic_session",
            entityId: row!.id,
            after,
          },
          now(),
        );
        return row!;
      }),
    );
    const message = `${created.name} created${created.isCurrent ? " and made current" : ""}. Registration for it is closed until you open it.`;
    return c.json(
      { status: "success", message, data: { id: created.id, name: created.name } },
      201,
    );
  });

  app.post("/staff/sessions/:id/current", registry, async (c) => {
    const { id } = readParams(c, SessionIdParam);
    const session = await db.transaction(async (tx) => {
      // Every session row locked, in one order: two officers making different sessions current at
      // the same moment run one after the other, and the second sees the first's change.
      const all = await tx
        .select()
        .from(academicSessions)
        .orderBy(academicSessions.id)
        .for("update");
      const target = all.find((row) => row.id === id);
      if (!target) throw new ApiError(404, "There is no such session. Reload the list.");
      const previous = all.find((row) => row.isCurrent);
      if (previous?.id === id)
        throw new ApiError(409, `${target.name} is already the current session.`);
      // Going back would move every student's registration and fees to a session that is over (decision 157).
      if (previous && target.name < previous.name) {
        throw new ApiError(
          409,
          `Only a session newer than the current one (${previous.name}) can be made current; ${target.name} is older.`,
        );
      }
      await tx
        .update(academicSessions)
        .set({ isCurrent: false })
        .where(eq(academicSessions.isCurrent, true));
      await tx.update(academicSessions).set({ isCurrent: true }).where(eq(academicSessions.id, id));
      const change = {
        staffId: c.var.staff.id,
        action: "session.make_current",
        entity: "academic_session",
        entityId: id,
      };
      await recordAudit(
        tx,
        { ...change, before: { current: previous?.name ?? null }, after: { current: target.name } },
        now(),
      );
      return { target, previous };
    });
    return c.json({
      status: "success",
      message: madeCurrentMessage(session.target.name, session.previous?.name ?? null),
    });
  });

  app.patch("/staff/sessions/:id/registration", registry, async (c) => {
    const { id } = readParams(c, SessionIdParam);
    const window = await readJson(c, RegistrationWindowRequest);
    const session = await db.transaction(async (tx) => {
      const existing = await findSessionById(tx, id);
      const values = {
        courseModifiable: window.course_modifiable,
        registrationOpensOn: window.opens_on,
        registrationClosesOn: window.closes_on,
      };
      const [saved] = await tx
        .update(academicSessions)
        .set(values)
        .where(eq(academicSessions.id, id))
        .returning();
      const diff = changedFields(existing, values);
      if (diff.changed) {
        const change = {
          staffId: c.var.staff.id,
          action: "session.registration",
          entity: "academic_session",
          entityId: id,
        };
        await recordAudit(tx, { ...change, before: diff.before, after: diff.after }, now());
      }
      return saved!;
    });
    const state = session.courseModifiable ? "open" : "closed";
    return c.json({
      status: "success",
      message: `Registration for ${session.name} is ${state}${session.courseModifiable && (session.registrationOpensOn || session.registrationClosesOn) ? " within the dates set" : ""}.`,
    });
  });

  return app;
}
