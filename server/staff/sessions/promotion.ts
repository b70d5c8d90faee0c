import { and, asc, count, eq, gte, lt, sql } from "drizzle-orm";
import type { Database, Transaction } from "../../db/client.ts";
import { programmes, sessionPromotions, students } from "../../db/schema.ts";
import { ApiError } from "../../http/errors.ts";
import type { PromotionGroup } from "../../../src/lib/staff/sessions.ts";
import { recordAudit } from "../audit.ts";

type Queryable = Database | Transaction;

/** Only students still studying move; those already graduating (or withdrawn, …) stay as they are. */
const STUDYING = "student";
const studying = eq(students.stage, STUDYING);
const finalYear = gte(students.level, programmes.finalLevel);

/**
 * Who moves at the start of a session, by programme and level: students below their programme's
 * final level go up one level; those at (or past) it are marked graduating. The preview and the
 * run both read this, so the preview is what the run does.
 */
export async function promotionGroups(db: Queryable): Promise<PromotionGroup[]> {
  const rows = await db
    .select({ programme: programmes.name, finalLevel: programmes.finalLevel, level: students.level, students: count() })
    .from(students)
    .innerJoin(programmes, eq(programmes.id, students.programmeId))
    .where(studying)
    .groupBy(programmes.name, programmes.finalLevel, students.level)
    .orderBy(asc(programmes.name), asc(students.level));
  return rows.map((row) => ({
    programme: row.programme,
    from_level: row.level,
    to_level: row.level >= row.finalLevel ? null : row.level + 100,
    students: row.students,
  }));
}

/** One page of the students who would move, in programme, level and name order. */
export async function promotionStudents(db: Queryable, page: number, pageSize: number) {
  const rows = await db
    .select({ student: students, programme: programmes.name, finalLevel: programmes.finalLevel })
    .from(students)
    .innerJoin(programmes, eq(programmes.id, students.programmeId))
    .where(studying)
    .orderBy(asc(programmes.name), asc(students.level), asc(students.surname), asc(students.id))
    .limit(pageSize)
    .offset((page - 1) * pageSize);
  return rows.map(({ student, programme, finalLevel }) => ({
    id: student.id,
    name: `${student.surname} ${student.othername}`,
    matric_no: student.matricNo,
    programme,
    from_level: student.level,
    to_level: student.level >= finalLevel ? null : student.level + 100,
  }));
}

export const totals = (groups: PromotionGroup[]) => ({
  promoted: groups.filter((group) => group.to_level !== null).reduce((sum, group) => sum + group.students, 0),
  graduating: groups.filter((group) => group.to_level === null).reduce((sum, group) => sum + group.students, 0),
});

/**
 * Promotes every studying student once for the session, in one transaction. The session's row in
 * session_promotions is the guard: it is inserted first, so a second run (even at the same moment)
 * finds it and is refused, and students never move twice in one session.
 */
export async function promoteStudents(db: Database, session: { id: number; name: string }, staffId: number, at: Date) {
  return db.transaction(async (tx) => {
    const groups = await promotionGroups(tx);
    const { promoted, graduating } = totals(groups);
    const [claimed] = await tx
      .insert(sessionPromotions)
      .values({ sessionId: session.id, promotedBy: staffId, at, promoted, graduating })
      .onConflictDoNothing()
      .returning();
    if (!claimed) throw new ApiError(409, `Students have already been promoted for ${session.name}; they move only once per session.`);

    const inProgramme = sql`${students.programmeId} = ${programmes.id}`;
    const graduated = await tx
      .update(students)
      .set({ stage: "graduating", updatedAt: at })
      .from(programmes)
      .where(and(inProgramme, studying, finalYear))
      .returning({ id: students.id });
    const moved = await tx
      .update(students)
      .set({ level: sql`${students.level} + 100`, updatedAt: at })
      .from(programmes)
      .where(and(inProgramme, studying, lt(students.level, programmes.finalLevel)))
      .returning({ id: students.id });

    const after = { promoted, graduating, groups, promoted_ids: moved.map((row) => row.id), graduating_ids: graduated.map((row) => row.id) };
    await recordAudit(tx, { staffId, action: "session.promote", entity: "academic_session", entityId: session.id, after }, at);
    return { session: session.name, promoted, graduating, groups };
  });
}
