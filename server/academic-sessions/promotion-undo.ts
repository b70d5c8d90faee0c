import { and, asc, desc, eq, isNull, sql } from "drizzle-orm";
import type { Database, Transaction } from "../db/client.ts";
import {
  academicSessions,
  promotionChanges,
  promotionRuns,
  sessionPromotions,
  staff,
  students,
} from "../db/schema.ts";
import { ApiError } from "../http/errors.ts";
import {
  PROMOTION_UNDO_DAYS,
  standing,
  type KeptStudent,
} from "../../common/academic-sessions/sessions.ts";
import { recordAudit } from "../audit/audit.ts";

type Queryable = Database | Transaction;
const DAY_MS = 86_400_000;

/** The session's promotion run in force (not undone), with who ran it; undefined when none was run on the portal. */
export async function runInForce(db: Queryable, sessionId: number) {
  const [run] = await db
    .select({
      id: promotionRuns.id,
      at: promotionRuns.at,
      by: staff.name,
      held: promotionRuns.held,
    })
    .from(promotionRuns)
    .innerJoin(staff, eq(staff.id, promotionRuns.promotedBy))
    .where(and(eq(promotionRuns.sessionId, sessionId), isNull(promotionRuns.undoneAt)))
    .orderBy(desc(promotionRuns.at));
  return run;
}

export const undoUntil = (at: Date) => new Date(at.getTime() + PROMOTION_UNDO_DAYS * DAY_MS);

export const runView = (run: { id: number; at: Date; by: string; held: number }) => ({
  id: run.id,
  at: run.at.toISOString(),
  by: run.by,
  held: run.held,
  undo_until: undoUntil(run.at).toISOString(),
});

/** Each student of the run beside where they stand now; those no longer where the run left them are kept. */
async function runStudents(db: Queryable, runId: number, lock: boolean) {
  const query = db
    .select({
      id: students.id,
      name: sql<string>`${students.surname} || ' ' || ${students.othername}`,
      matricNo: students.matricNo,
      level: students.level,
      stage: students.stage,
      change: promotionChanges,
    })
    .from(promotionChanges)
    .innerJoin(students, eq(students.id, promotionChanges.studentId))
    .where(eq(promotionChanges.runId, runId))
    .orderBy(asc(students.id));
  const rows = lock ? await query.for("update", { of: students }) : await query;
  const untouched = (row: (typeof rows)[number]) =>
    row.level === row.change.toLevel && row.stage === row.change.toStage;
  const kept: KeptStudent[] = rows
    .filter((row) => !untouched(row))
    .map((row) => ({
      id: row.id,
      name: row.name,
      matric_no: row.matricNo,
      promoted_to: standing(row.change.toLevel, row.change.toStage),
      now: standing(row.level, row.stage),
    }));
  return { restorable: rows.filter(untouched).length, kept };
}

function assertUndoable(
  session: { name: string; isCurrent: boolean },
  run: { at: Date } | undefined,
  now: Date,
): asserts run {
  if (!session.isCurrent)
    throw new ApiError(
      409,
      `Only a promotion of the current session can be undone; ${session.name} is not current.`,
    );
  if (!run)
    throw new ApiError(
      409,
      `There is no promotion of ${session.name} to undo: levels for it were not set by a promotion on the portal, or it was already undone.`,
    );
  if (now.getTime() > undoUntil(run.at).getTime()) {
    throw new ApiError(
      409,
      `The promotion for ${session.name} was more than ${PROMOTION_UNDO_DAYS} days ago and can no longer be undone; correct individual students' levels on their records.`,
    );
  }
}

/** What undoing would do now: how many students go back, and who is kept because they were changed since. */
export async function undoPreview(
  db: Database,
  session: { id: number; name: string; isCurrent: boolean },
  now: Date,
) {
  const run = await runInForce(db, session.id);
  assertUndoable(session, run, now);
  const { restorable, kept } = await runStudents(db, run.id, false);
  return { session: session.name, run: runView(run), restored: restorable, kept };
}

/**
 * Puts every student of the session's promotion back at the level and stage the run found them
 * in, except those whose level or stage someone changed after it (listed, left as they are).
 * The run is marked undone and the session's promotion guard removed, so the registry can
 * promote again (with the right students held back). The run row is locked first: two undos at
 * once run one after the other and the second finds nothing to undo.
 */
export async function undoPromotion(db: Database, sessionId: number, staffId: number, now: Date) {
  return db.transaction(async (tx) => {
    // Locked as making a session current locks it: the undo and a change of current session run one after the other.
    const [session] = await tx
      .select()
      .from(academicSessions)
      .where(eq(academicSessions.id, sessionId))
      .for("update");
    if (!session) throw new ApiError(404, "There is no such session. Reload the list.");
    const [locked] = await tx
      .select({ id: promotionRuns.id })
      .from(promotionRuns)
      .where(and(eq(promotionRuns.sessionId, sessionId), isNull(promotionRuns.undoneAt)))
      .for("update");
    const run = locked ? await runInForce(tx, sessionId) : undefined;
    assertUndoable(session, run, now);
    const { restorable, kept } = await runStudents(tx, run.id, true);
    const keptIds = kept.map((student) => student.id);
    await tx.execute(sql`
      update ${students} set level = c.from_level, stage = c.from_stage, updated_at = ${now}
      from ${promotionChanges} c
      where c.run_id = ${run.id} and c.student_id = ${students.id}
        and ${students.level} = c.to_level and ${students.stage} = c.to_stage`);
    await tx
      .update(promotionRuns)
      .set({ undoneBy: staffId, undoneAt: now })
      .where(eq(promotionRuns.id, run.id));
    await tx.delete(sessionPromotions).where(eq(sessionPromotions.sessionId, sessionId));
    const after = { run: run.id, restored: restorable, kept: keptIds };
    await recordAudit(
      tx,
      {
        staffId,
        action: "session.promotion_undo",
        entity: "academic_session",
        entityId: sessionId,
        before: { promoted_at: run.at.toISOString() },
        after,
      },
      now,
    );
    return { session: session.name, restored: restorable, kept };
  });
}

/** "Promotion for 2025/2026 undone: 41 students are back at the level they had before; 1 student changed since is kept as they are now: …" */
export function undoMessage(session: string, result: { restored: number; kept: KeptStudent[] }) {
  const back = `${result.restored} student${result.restored === 1 ? " is" : "s are"} back at the level they had before`;
  if (!result.kept.length)
    return `Promotion for ${session} undone: ${back}. You can promote again.`;
  const names = result.kept
    .map(
      (student) => `${student.name} (${student.matric_no ?? "no matric. no."}, now ${student.now})`,
    )
    .join("; ");
  return `Promotion for ${session} undone: ${back}. ${result.kept.length === 1 ? "1 student was" : `${result.kept.length} students were`} changed after the promotion and kept as they are: ${names}. You can promote again.`;
}
