import { count, desc, eq } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { academicSessions, sessionPromotions, staff } from "../db/schema.ts";
import { collegeDate } from "../../common/format/dates.ts";
import { windowState } from "../../common/courses/registration-window.ts";
import {
  nextSessionName,
  type SessionChoices,
  type StaffSession,
} from "../../common/academic-sessions/sessions.ts";

export const SESSION_PAGE_SIZE = 20;

type PromotionRow = { at: Date; by: string | null; promoted: number; graduating: number } | null;

export const promotionView = (row: PromotionRow) =>
  row
    ? { at: row.at.toISOString(), by: row.by, promoted: row.promoted, graduating: row.graduating }
    : null;

/** The sessions newest first, each with what a student meets today and its promotion record. */
export async function sessionPage(db: Database, page: number, now: Date) {
  const today = collegeDate(now);
  const [total] = await db.select({ value: count() }).from(academicSessions);
  const rows = await db
    .select({
      session: academicSessions,
      promotion: {
        at: sessionPromotions.at,
        by: staff.name,
        promoted: sessionPromotions.promoted,
        graduating: sessionPromotions.graduating,
      },
    })
    .from(academicSessions)
    .leftJoin(sessionPromotions, eq(sessionPromotions.sessionId, academicSessions.id))
    .leftJoin(staff, eq(staff.id, sessionPromotions.promotedBy))
    .orderBy(desc(academicSessions.name))
    .limit(SESSION_PAGE_SIZE)
    .offset((page - 1) * SESSION_PAGE_SIZE);
  const [newest] = await db
    .select({ name: academicSessions.name })
    .from(academicSessions)
    .orderBy(desc(academicSessions.name))
    .limit(1);
  const [current] = await db
    .select({ name: academicSessions.name })
    .from(academicSessions)
    .where(eq(academicSessions.isCurrent, true));
  const data: StaffSession[] = rows.map(({ session, promotion }) => ({
    id: session.id,
    name: session.name,
    is_current: session.isCurrent,
    course_modifiable: session.courseModifiable,
    registration_opens_on: session.registrationOpensOn,
    registration_closes_on: session.registrationClosesOn,
    window: windowState(session, today),
    promotion: promotion?.at ? promotionView(promotion as PromotionRow) : null,
  }));
  return {
    data,
    current: current?.name ?? null,
    total: total?.value ?? 0,
    page,
    page_size: SESSION_PAGE_SIZE,
    next_name: nextSessionName(newest?.name, now.getUTCFullYear()),
  };
}

/** Every session's name, newest first, and the current one: one short read of the table. */
export async function sessionChoices(db: Database): Promise<SessionChoices> {
  const rows = await db
    .select({ name: academicSessions.name, isCurrent: academicSessions.isCurrent })
    .from(academicSessions)
    .orderBy(desc(academicSessions.name));
  return {
    sessions: rows.map((row) => row.name),
    current: rows.find((row) => row.isCurrent)?.name ?? null,
  };
}
