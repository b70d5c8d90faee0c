import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, isNull } from "drizzle-orm";
import type { Database, Transaction } from "../db/client.ts";
import { staff, staffPasswordTokens } from "../db/schema.ts";
import { endAllStaffSessions, type StaffRow } from "./staff-sessions.ts";

/** An invitation has days to be opened (staff may be on leave); a reset link is as short as a student's. */
export const INVITE_LINK_HOURS = 72;

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

/** A new single-use link token for the staff member; earlier unused links stop working. */
export async function issueStaffPasswordToken(db: Database | Transaction, member: StaffRow, now: Date): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  await db.transaction(async (tx) => {
    await tx
      .update(staffPasswordTokens)
      .set({ usedAt: now })
      .where(and(eq(staffPasswordTokens.staffId, member.id), isNull(staffPasswordTokens.usedAt)));
    await tx.insert(staffPasswordTokens).values({
      staffId: member.id,
      tokenHash: hashToken(token),
      createdAt: now,
      expiresAt: new Date(now.getTime() + INVITE_LINK_HOURS * 3_600_000),
    });
  });
  return token;
}

/**
 * Spends the token and sets the password in one transaction, then signs the member out
 * everywhere. Null when the link is unknown, used, expired or its account deactivated.
 */
export async function setPasswordWithToken(db: Database, token: string, passwordHash: string, now: Date) {
  return db.transaction(async (tx) => {
    const [spent] = await tx
      .update(staffPasswordTokens)
      .set({ usedAt: now })
      .where(
        and(
          eq(staffPasswordTokens.tokenHash, hashToken(token)),
          isNull(staffPasswordTokens.usedAt),
          gt(staffPasswordTokens.expiresAt, now),
        ),
      )
      .returning({ staffId: staffPasswordTokens.staffId });
    if (!spent) return null;
    const [member] = await tx
      .update(staff)
      .set({ passwordHash, passwordChangedAt: now, updatedAt: now })
      .where(and(eq(staff.id, spent.staffId), eq(staff.active, true)))
      .returning();
    if (!member) return null;
    await endAllStaffSessions(tx as unknown as Database, member.id, now);
    return member;
  });
}
