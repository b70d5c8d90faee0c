import { createHash, randomBytes } from "node:crypto";
import { and, eq, isNull } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { staff, staffSessions } from "../db/schema.ts";

/**
 * Staff sessions are shorter than students' (2 h idle, 12 h absolute): a registry or bursary
 * desk is often a shared office computer, and a staff session can change many students' records.
 */
export const STAFF_SESSION_LIMITS = { idleMinutes: 30, absoluteHours: 10 } as const;

export type StaffRow = typeof staff.$inferSelect;
export type SignedInStaff = StaffRow & { sessionTokenHash: string; secondFactorDone: boolean };

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");
const TOUCH_AFTER_MS = 60_000;

export async function startStaffSession(
  db: Database,
  staffId: number,
  now: Date,
  secondFactorDone: boolean,
): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  await db.insert(staffSessions).values({
    tokenHash: hashToken(token),
    staffId,
    createdAt: now,
    lastSeenAt: now,
    expiresAt: new Date(now.getTime() + STAFF_SESSION_LIMITS.absoluteHours * 3_600_000),
    secondFactorAt: secondFactorDone ? now : null,
  });
  return token;
}

/** The active staff member behind a token, or null when unknown, revoked, idle, expired or deactivated. */
export async function resolveStaffSession(
  db: Database,
  token: string,
  now: Date,
): Promise<SignedInStaff | null> {
  const tokenHash = hashToken(token);
  const [row] = await db
    .select({ session: staffSessions, staff })
    .from(staffSessions)
    .innerJoin(staff, eq(staff.id, staffSessions.staffId))
    .where(
      and(
        eq(staffSessions.tokenHash, tokenHash),
        isNull(staffSessions.revokedAt),
        eq(staff.active, true),
      ),
    )
    .limit(1);
  if (!row) return null;
  const idleSince = now.getTime() - row.session.lastSeenAt.getTime();
  if (row.session.expiresAt <= now || idleSince > STAFF_SESSION_LIMITS.idleMinutes * 60_000)
    return null;
  if (idleSince > TOUCH_AFTER_MS) {
    await db
      .update(staffSessions)
      .set({ lastSeenAt: now })
      .where(eq(staffSessions.tokenHash, tokenHash));
  }
  return {
    ...row.staff,
    sessionTokenHash: tokenHash,
    secondFactorDone: row.session.secondFactorAt !== null,
  };
}

export async function completeSecondFactor(db: Database, tokenHash: string, now: Date) {
  await db
    .update(staffSessions)
    .set({ secondFactorAt: now })
    .where(eq(staffSessions.tokenHash, tokenHash));
}

export async function endStaffSession(db: Database, tokenHash: string, now: Date) {
  await db
    .update(staffSessions)
    .set({ revokedAt: now })
    .where(eq(staffSessions.tokenHash, tokenHash));
}

/** Signs a staff member out everywhere: on deactivation, a new password, or a TOTP reset. */
export async function endAllStaffSessions(db: Database, staffId: number, now: Date) {
  await db
    .update(staffSessions)
    .set({ revokedAt: now })
    .where(and(eq(staffSessions.staffId, staffId), isNull(staffSessions.revokedAt)));
}
