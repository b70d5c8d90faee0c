import { and, asc, count, desc, eq, gt, gte, lt, lte, or, type AnyColumn } from "drizzle-orm";
import type { Database, Transaction } from "../db/client.ts";
import { preparedQuery } from "../db/prepared.ts";
import {
  courseOfferings,
  courseScores,
  gradingSchemes,
  resultPublications,
  staff,
} from "../db/schema.ts";
import { ApiError } from "../http/errors.ts";
import { recordAudit } from "../audit/audit.ts";
import { findSession } from "../courses/registration-rules.ts";
import { sessionChoices } from "../academic-sessions/session-list.ts";
import { NCE_SCHEME, type GradingScheme } from "../../common/results/grading.ts";
import type { GradingSchemeList } from "../../common/results/grading-schemes.ts";

/**
 * The scheme a session's results are graded by: the latest the college set from that session or
 * before (sessions sort as text, "2024/2025" < "2025/2026"), else the NCE scale (decision 174).
 */
export async function schemeFor(
  db: Database | Transaction,
  session: string,
): Promise<GradingScheme> {
  const [row] = await db
    .select({ scheme: gradingSchemes.scheme })
    .from(gradingSchemes)
    .where(lte(gradingSchemes.fromSession, session))
    .orderBy(desc(gradingSchemes.fromSession))
    .limit(1);
  return row?.scheme ?? NCE_SCHEME;
}

const everyScheme = preparedQuery((db) =>
  db
    .select({ fromSession: gradingSchemes.fromSession, scheme: gradingSchemes.scheme })
    .from(gradingSchemes)
    .orderBy(desc(gradingSchemes.fromSession))
    .prepare("every_grading_scheme"),
);

/**
 * The scheme of each of these sessions, in one read of the (short) table: what computing a
 * student's every semester needs, without a query per session.
 */
export async function schemesFor(
  db: Database | Transaction,
  sessions: Iterable<string>,
): Promise<Map<string, GradingScheme>> {
  return schemesFrom(await everyScheme(db).execute(), sessions);
}

/** `schemesFor` over the college's schemes already read, newest first. */
export function schemesFrom(
  newestFirst: readonly { fromSession: string; scheme: GradingScheme }[],
  sessions: Iterable<string>,
): Map<string, GradingScheme> {
  return new Map(
    [...sessions].map((session) => [
      session,
      newestFirst.find((row) => row.fromSession <= session)?.scheme ?? NCE_SCHEME,
    ]),
  );
}

/**
 * The schemes the college set, newest first, with who set each; the NCE scale applies to every
 * session before the first.
 */
export async function listGradingSchemes(db: Database): Promise<GradingSchemeList> {
  const rows = await db
    .select({
      fromSession: gradingSchemes.fromSession,
      scheme: gradingSchemes.scheme,
      setBy: staff.name,
      setAt: gradingSchemes.createdAt,
    })
    .from(gradingSchemes)
    .leftJoin(staff, eq(staff.id, gradingSchemes.staffId))
    .orderBy(desc(gradingSchemes.fromSession));
  const { sessions } = await sessionChoices(db);
  return {
    default: NCE_SCHEME,
    sessions: [...sessions].reverse(),
    schemes: rows.map((row) => ({
      from_session: row.fromSession,
      scheme: row.scheme,
      set_by: row.setBy,
      set_at: row.setAt.toISOString(),
    })),
  };
}

/**
 * Sets the scheme results are graded by from a session until the next scheme set (decision 183),
 * replacing one set from the same session. Refused when it would change what students were
 * shown (a result of those sessions is published: grades change only by amendment) or leave a
 * saved score above the new maxima. The open results of those sessions are locked first, so no
 * lecturer saves a score against the old maxima while the new ones are checked.
 */
export async function setGradingScheme(
  db: Database,
  staffId: number,
  request: { from_session: string; scheme: GradingScheme },
  now: Date,
) {
  const from = request.from_session;
  await findSession(db, from);
  await db.transaction(async (tx) => {
    const [next] = await tx
      .select({ fromSession: gradingSchemes.fromSession })
      .from(gradingSchemes)
      .where(gt(gradingSchemes.fromSession, from))
      .orderBy(asc(gradingSchemes.fromSession))
      .limit(1);
    // The sessions this scheme will grade: from its own up to the next scheme's first.
    const governs = (column: AnyColumn) =>
      next ? and(gte(column, from), lt(column, next.fromSession)) : gte(column, from);
    await tx
      .select({ id: courseOfferings.id })
      .from(courseOfferings)
      .where(governs(courseOfferings.session))
      .orderBy(asc(courseOfferings.id))
      .for("update");
    const published = await tx
      .selectDistinct({ session: resultPublications.session })
      .from(resultPublications)
      .where(governs(resultPublications.session))
      .orderBy(asc(resultPublications.session));
    if (published.length)
      throw new ApiError(
        409,
        `Results of ${published.map((row) => row.session).join(", ")} are published under the scheme in force: set a new scheme from a session whose results are not yet published.`,
        { fields: { from_session: "Choose a session whose results are not yet published." } },
      );
    const { caMax, examMax } = request.scheme;
    const [above] = await tx
      .select({ n: count() })
      .from(courseScores)
      .innerJoin(courseOfferings, eq(courseOfferings.id, courseScores.offeringId))
      .where(
        and(
          governs(courseOfferings.session),
          or(gt(courseScores.ca, caMax), gt(courseScores.exam, examMax)),
        ),
      );
    if (above!.n)
      throw new ApiError(
        409,
        `${above!.n} saved ${above!.n === 1 ? "score is" : "scores are"} above the new maxima (CA ${caMax}, exam ${examMax}): the lecturers must correct ${above!.n === 1 ? "it" : "them"} first, or keep the split.`,
        { fields: { "scheme.caMax": "Saved scores are above this split." } },
      );
    const [before] = await tx
      .select()
      .from(gradingSchemes)
      .where(eq(gradingSchemes.fromSession, from));
    const [row] = await tx
      .insert(gradingSchemes)
      .values({ fromSession: from, scheme: request.scheme, staffId, createdAt: now })
      .onConflictDoUpdate({
        target: gradingSchemes.fromSession,
        set: { scheme: request.scheme, staffId, createdAt: now },
      })
      .returning({ id: gradingSchemes.id });
    await recordAudit(
      tx,
      {
        staffId,
        action: "grading_scheme.set",
        entity: "grading_scheme",
        entityId: row!.id,
        before: before ? { from_session: from, ...before.scheme } : undefined,
        after: { from_session: from, ...request.scheme },
      },
      now,
    );
  });
}
