import { and, eq, isNull, lt, or, sql } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { staff } from "../db/schema.ts";
import type { StaffRow } from "./staff-sessions.ts";
import { acceptedStep, hashRecoveryCode } from "./totp.ts";

/**
 * Accepts a current authenticator code or an unused recovery code. Each is spent by one
 * conditional UPDATE, so two requests racing with the same code cannot both pass.
 */
export async function checkSecondFactor(db: Database, member: StaffRow, code: string, now: Date): Promise<boolean> {
  if (!member.totpSecret) return false;
  const step = acceptedStep(member.totpSecret, code.replaceAll(" ", ""), now);
  if (step !== null) {
    const spent = await db
      .update(staff)
      .set({ totpLastStep: step })
      .where(and(eq(staff.id, member.id), or(isNull(staff.totpLastStep), lt(staff.totpLastStep, step))))
      .returning({ id: staff.id });
    return spent.length === 1;
  }
  const hash = hashRecoveryCode(code);
  const spent = await db
    .update(staff)
    .set({ recoveryCodeHashes: sql`array_remove(${staff.recoveryCodeHashes}, ${hash})` })
    .where(and(eq(staff.id, member.id), sql`${hash} = any(${staff.recoveryCodeHashes})`))
    .returning({ id: staff.id });
  return spent.length === 1;
}
