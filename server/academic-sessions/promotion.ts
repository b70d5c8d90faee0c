import { and, asc, count, eq, gte, inArray, notInArray, sql, type SQL } from "drizzle-orm";
import type { Database, Transaction } from "../db/client.ts";
import {
  programmes,
  promotionChanges,
  promotionRuns,
  sessionPromotions,
  students,
} from "../db/schema.ts";
import { ApiError } from "../http/errors.ts";
import type { HeldStudent, PromotionGroup } from "../../common/academic-sessions/sessions.ts";
import { recordAudit } from "../audit/audit.ts";

type Queryable = Database | Transaction;

/** Only students still studying move; those already graduating (or withdrawn, …) stay as they are. */
const STUDYING = "student";
const studying = eq(students.stage, STUDYING);
const finalYear = gte(students.level, programmes.finalLevel);
/** Studying students who are not held back: the ones a run moves. */
const moving = (heldIds: readonly number[]): SQL =>
  heldIds.length ? and(studying, notInArray(students.id, [...heldIds]))! : studying;

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * The studying students named by matriculation number (compared without regard to case or
 * surrounding spaces). Numbers that name no student, or a student who is not studying, are
 * refused all together with each one listed, so the registry corrects the list before anything moves.
 */
export async function heldStudents(
  db: Queryable,
  matricNumbers: readonly string[],
): Promise<HeldStudent[]> {
  if (matricNumbers.length === 0) return [];
  const wanted = [...new Set(matricNumbers.map((number) => number.trim().toLowerCase()))];
  const rows = await db
    .select({
      id: students.id,
      surname: students.surname,
      othername: students.othername,
      matricNo: students.matricNo,
      level: students.level,
      stage: students.stage,
    })
    .from(students)
    .where(inArray(sql<string>`lower(${students.matricNo})`, wanted));
  const found = new Map(rows.map((row) => [row.matricNo!.toLowerCase(), row]));
  const unknown = matricNumbers
    .map((number) => number.trim())
    .filter((number) => !found.has(number.toLowerCase()));
  if (unknown.length) {
    const shown =
      unknown.slice(0, 20).join(", ") +
      (unknown.length > 20 ? ` and ${unknown.length - 20} more` : "");
    throw new ApiError(
      400,
      `No student has the matriculation number${unknown.length === 1 ? "" : "s"} ${shown}. Correct the list and check again; nobody was held back or promoted.`,
      {
        fields: { hold: "Unknown matriculation numbers." },
      },
    );
  }
  const notStudying = rows.filter((row) => row.stage !== STUDYING);
  if (notStudying.length) {
    const shown = notStudying.map((row) => `${row.matricNo} (${row.stage})`).join(", ");
    throw new ApiError(
      400,
      `Only studying students move up, so only they can be held back: ${shown}. Take ${notStudying.length === 1 ? "it" : "them"} off the list.`,
      {
        fields: { hold: "Not studying." },
      },
    );
  }
  return rows
    .map((row) => ({
      id: row.id,
      name: `${row.surname} ${row.othername}`,
      matric_no: row.matricNo!,
      level: row.level,
    }))
    .sort((a, b) => a.matric_no.localeCompare(b.matric_no));
}

/**
 * Who moves at the start of a session, by programme and level: students below their programme's
 * final level go up one level; those at (or past) it are marked graduating; held students stay.
 * The preview and the run both read this, so the preview is what the run does.
 */
export async function promotionGroups(
  db: Queryable,
  heldIds: readonly number[] = [],
): Promise<PromotionGroup[]> {
  const rows = await db
    .select({
      programme: programmes.name,
      finalLevel: programmes.finalLevel,
      level: students.level,
      students: count(),
    })
    .from(students)
    .innerJoin(programmes, eq(programmes.id, students.programmeId))
    .where(moving(heldIds))
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
export async function promotionStudents(
  db: Queryable,
  page: number,
  pageSize: number,
  heldIds: readonly number[] = [],
) {
  const rows = await db
    .select({ student: students, programme: programmes.name, finalLevel: programmes.finalLevel })
    .from(students)
    .innerJoin(programmes, eq(programmes.id, students.programmeId))
    .where(moving(heldIds))
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
  promoted: groups
    .filter((group) => group.to_level !== null)
    .reduce((sum, group) => sum + group.students, 0),
  graduating: groups
    .filter((group) => group.to_level === null)
    .reduce((sum, group) => sum + group.students, 0),
});

/** The sentence the registry reads after a run. */
export const promotionMessage = (
  session: string,
  result: { promoted: number; graduating: number; held: number },
) =>
  `Promotion for ${session} done: ${plural(result.promoted, "student")} moved up a level, ${result.graduating} marked as graduating` +
  (result.held ? `, ${result.held} held back at their level.` : ".");

/**
 * Promotes every studying student not held back, once for the session, in one transaction. The
 * session's row in session_promotions is the guard: it is inserted first, so a second run (even
 * at the same moment) finds it and is refused, and students never move twice in one session.
 * Each student's change is stored first and then applied from that record, so the undo
 * (undoPromotion) knows exactly what the run did.
 */
export async function promoteStudents(
  db: Database,
  session: { id: number; name: string },
  staffId: number,
  hold: readonly string[],
  at: Date,
) {
  return db.transaction(async (tx) => {
    const held = await heldStudents(tx, hold);
    const heldIds = held.map((student) => student.id);
    const groups = await promotionGroups(tx, heldIds);
    const { promoted, graduating } = totals(groups);
    const [claimed] = await tx
      .insert(sessionPromotions)
      .values({ sessionId: session.id, promotedBy: staffId, at, promoted, graduating })
      .onConflictDoNothing()
      .returning();
    if (!claimed)
      throw new ApiError(
        409,
        `Students have already been promoted for ${session.name}; they move only once per session.`,
      );
    const [run] = await tx
      .insert(promotionRuns)
      .values({ sessionId: session.id, promotedBy: staffId, at, held: held.length })
      .returning({ id: promotionRuns.id });
    // Rows locked as they are read: a hand edit of a student's level waits for the run, or the run for it.
    await tx.execute(sql`
      insert into ${promotionChanges} (run_id, student_id, from_level, to_level, from_stage, to_stage)
      select ${run!.id}, ${students.id}, ${students.level},
        case when ${finalYear} then ${students.level} else ${students.level} + 100 end,
        ${students.stage},
        case when ${finalYear} then 'graduating' else ${students.stage} end
      from ${students} inner join ${programmes} on ${programmes.id} = ${students.programmeId}
      where ${moving(heldIds)}
      for update of ${students}`);
    await tx.execute(sql`
      update ${students} set level = c.to_level, stage = c.to_stage, updated_at = ${at}
      from ${promotionChanges} c where c.run_id = ${run!.id} and c.student_id = ${students.id}`);
    const after = {
      promoted,
      graduating,
      groups,
      held: held.map((student) => student.matric_no),
      run: run!.id,
    };
    await recordAudit(
      tx,
      {
        staffId,
        action: "session.promote",
        entity: "academic_session",
        entityId: session.id,
        after,
      },
      at,
    );
    return { session: session.name, promoted, graduating, held: held.length, groups };
  });
}
