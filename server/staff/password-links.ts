import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, isNull } from "drizzle-orm";
import type { Database, Transaction } from "../db/client.ts";
import { staff, staffPasswordTokens } from "../db/schema.ts";
import { recordAudit } from "../audit/audit.ts";
import { endAllStaffSessions, type StaffRow } from "./staff-sessions.ts";

/**
 * An invitation has days to be opened (staff may be on leave). A link for an account that already
 * has a password replaces a password someone may be using: it lives an hour, as mail left unread
 * in a shared inbox is the likelier way it leaks.
 */
export const INVITE_LINK_HOURS = 72;
export const RESET_LINK_HOURS = 1;

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

/**
 * A new single-use link token for an active staff member; earlier unused links stop working.
 * Null when the account is deactivated. The account's row is locked first, so a deactivation
 * (which spends every unused link: spendStaffPasswordLinks) either waits for this link and spends
 * it, or has happened and no link is issued: a link never outlives a deactivation.
 */
export async function issueStaffPasswordToken(
  db: Database | Transaction,
  member: StaffRow,
  now: Date,
): Promise<string | null> {
  const token = randomBytes(32).toString("base64url");
  const issued = await db.transaction(async (tx) => {
    const [current] = await tx
      .select({ active: staff.active, passwordHash: staff.passwordHash })
      .from(staff)
      .where(eq(staff.id, member.id))
      .for("update");
    if (!current?.active) return false;
    await spendStaffPasswordLinks(tx, member.id, now);
    const hours = current.passwordHash ? RESET_LINK_HOURS : INVITE_LINK_HOURS;
    await tx.insert(staffPasswordTokens).values({
      staffId: member.id,
      tokenHash: hashToken(token),
      createdAt: now,
      expiresAt: new Date(now.getTime() + hours * 3_600_000),
    });
    return true;
  });
  return issued ? token : null;
}

/** Spends every unused link of the account: on a new link, and on deactivation. */
export async function spendStaffPasswordLinks(
  tx: Database | Transaction,
  staffId: number,
  now: Date,
) {
  await tx
    .update(staffPasswordTokens)
    .set({ usedAt: now })
    .where(and(eq(staffPasswordTokens.staffId, staffId), isNull(staffPasswordTokens.usedAt)));
}

/** The live link a token names: unused, unexpired, of an active account; null otherwise. */
export async function findLiveStaffPasswordToken(db: Database, token: string, now: Date) {
  const [live] = await db
    .select({ tokenId: staffPasswordTokens.id, staffId: staffPasswordTokens.staffId })
    .from(staffPasswordTokens)
    .innerJoin(staff, eq(staff.id, staffPasswordTokens.staffId))
    .where(
      and(
        eq(staffPasswordTokens.tokenHash, hashToken(token)),
        isNull(staffPasswordTokens.usedAt),
        gt(staffPasswordTokens.expiresAt, now),
        eq(staff.active, true),
      ),
    )
    .limit(1);
  return live ?? null;
}

/**
 * Spends the link found by findLiveStaffPasswordToken and sets the password in one transaction,
 * then signs the member out everywhere. Null when another request spent the link first, it
 * expired meanwhile or the account was deactivated: of two uses of one link, one succeeds.
 */
export async function setPasswordWithToken(
  db: Database,
  live: { tokenId: number; staffId: number },
  passwordHash: string,
  now: Date,
) {
  return db.transaction(async (tx) => {
    const [spent] = await tx
      .update(staffPasswordTokens)
      .set({ usedAt: now })
      .where(
        and(
          eq(staffPasswordTokens.id, live.tokenId),
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
    await recordAudit(
      tx,
      { staffId: member.id, action: "staff.password_set", entity: "staff", entityId: member.id },
      now,
    );
    await endAllStaffSessions(tx as unknown as Database, member.id, now);
    return member;
  });
}
