import { hash, randomBytes } from "node:crypto";
import { and, eq, isNull, ne, sql } from "drizzle-orm";
import type { Database, Transaction } from "../db/client.ts";
import { authSessions, students } from "../db/schema.ts";
import type { SessionCache } from "./session-cache.ts";
import { placeholderValue, preparedQuery } from "../db/prepared.ts";
import { placementColumns, type StudentPlacement } from "../students/student-record.ts";

export type SessionLimits = {
  idleMinutes: number;
  absoluteHours: number;
  /** How long this process may reuse a session it looked up (decision 112); 0 or unset: never. */
  cacheMs?: number;
};

/**
 * The signed-in student as routes see them: the row, the token's hash for sign-out, and the
 * session the registry has marked current, read with the row (so as fresh as the row is: within
 * the session cache's few seconds) because nearly every student read is about that session.
 */
export type SignedInStudent = typeof students.$inferSelect & {
  sessionTokenHash: string;
  /** Read with the row too: the current session, and a signed-in page's record (`/student/me`) costs no query. */
  placement: StudentPlacement;
};

const hashToken = (token: string) => hash("sha256", token);

// Only refresh last_seen_at once a minute: a page load makes several calls.
const TOUCH_AFTER_MS = 60_000;

/** Starts a session for a student who has just proved who they are; answers its bearer token. */
export async function startSession(
  db: Database,
  signedIn: { student: typeof students.$inferSelect; placement: StudentPlacement },
  now: Date,
  limits: SessionLimits,
  cache?: SessionCache,
): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  const session = {
    tokenHash: hashToken(token),
    studentId: signedIn.student.id,
    createdAt: now,
    lastSeenAt: now,
    expiresAt: new Date(now.getTime() + limits.absoluteHours * 3_600_000),
    revokedAt: null,
  };
  await insertSession(db).execute(session);
  // The page a sign-in leads to (the dashboard) would look up this session at once: this process
  // already holds what that lookup reads, as fresh as a lookup would be, so it costs no query.
  cache?.set(session.tokenHash, { session, ...signedIn });
  return token;
}

const insertSession = preparedQuery((db) =>
  db
    .insert(authSessions)
    .values({
      tokenHash: sql.placeholder("tokenHash"),
      studentId: sql.placeholder("studentId"),
      createdAt: sql.placeholder("createdAt"),
      lastSeenAt: sql.placeholder("lastSeenAt"),
      expiresAt: sql.placeholder("expiresAt"),
    })
    .prepare("insert_session"),
);

const revokeSession = preparedQuery((db) =>
  db
    .update(authSessions)
    .set({ revokedAt: placeholderValue("revokedAt") })
    .where(eq(authSessions.tokenHash, sql.placeholder("tokenHash")))
    .prepare("revoke_session"),
);

const liveSessionQuery = preparedQuery((db) =>
  db
    .select({
      session: authSessions,
      student: students,
      placement: placementColumns(),
    })
    .from(authSessions)
    .innerJoin(students, eq(students.id, authSessions.studentId))
    .where(
      and(eq(authSessions.tokenHash, sql.placeholder("tokenHash")), isNull(authSessions.revokedAt)),
    )
    .limit(1)
    .prepare("live_session"),
);

/** The student behind a bearer token, or null when it is unknown, revoked, idle or expired. */
export async function resolveSession(
  db: Database,
  token: string,
  now: Date,
  limits: SessionLimits,
  cache?: SessionCache,
): Promise<SignedInStudent | null> {
  const tokenHash = hashToken(token);
  let row = cache?.get(tokenHash);
  if (!row) {
    [row] = await liveSessionQuery(db).execute({ tokenHash });
    if (!row) return null;
    cache?.set(tokenHash, row);
  }
  const idleSince = now.getTime() - row.session.lastSeenAt.getTime();
  if (row.session.expiresAt <= now || idleSince > limits.idleMinutes * 60_000) {
    cache?.forgetToken(tokenHash);
    return null;
  }
  if (idleSince > TOUCH_AFTER_MS) {
    await db
      .update(authSessions)
      .set({ lastSeenAt: now })
      .where(eq(authSessions.tokenHash, tokenHash));
    row.session = { ...row.session, lastSeenAt: now };
  }
  return { ...row.student, sessionTokenHash: tokenHash, placement: row.placement };
}

export async function endSession(db: Database, tokenHash: string, now: Date) {
  await revokeSession(db).execute({ revokedAt: now, tokenHash });
}

/** Signs a student out everywhere, e.g. after a password reset. */
export async function endAllSessions(db: Database, studentId: number, now: Date) {
  await db
    .update(authSessions)
    .set({ revokedAt: now })
    .where(and(eq(authSessions.studentId, studentId), isNull(authSessions.revokedAt)));
}

/** Signs a student out everywhere but the session in hand, e.g. after their phone or e-mail changes. */
export async function endOtherSessions(
  db: Database | Transaction,
  studentId: number,
  keptTokenHash: string,
  now: Date,
) {
  await db
    .update(authSessions)
    .set({ revokedAt: now })
    .where(
      and(
        eq(authSessions.studentId, studentId),
        ne(authSessions.tokenHash, keptTokenHash),
        isNull(authSessions.revokedAt),
      ),
    );
}
