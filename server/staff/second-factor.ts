import { and, eq, isNull, lt, or, sql } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { staff } from "../db/schema.ts";
import type { StaffRow } from "./staff-sessions.ts";
import { recordAudit } from "../audit/audit.ts";
import { acceptedStep, hashRecoveryCode } from "./totp.ts";

/**
 * Accepts a current authenticator code or an unused recovery code. Each is spent by one
 * conditional UPDATE, so two requests racing with the same code cannot both pass.
 */
export async function checkSecondFactor(
  db: Database,
  member: StaffRow,
  code: string,
  now: Date,
): Promise<boolean> {
  if (!member.totpSecret) return false;
  const step = acceptedStep(member.totpSecret, code.replaceAll(" ", ""), now);
  if (step !== null) {
    const spent = await db
      .update(staff)
      .set({ totpLastStep: step })
      .where(
        and(eq(staff.id, member.id), or(isNull(staff.totpLastStep), lt(staff.totpLastStep, step))),
      )
      .returning({ id: staff.id });
    return spent.length === 1;
  }
  const hash = hashRecoveryCode(code);
  return db.transaction(async (tx) => {
    const spent = await tx
      .update(staff)
      .set({ recoveryCodeHashes: sql`array_remove(${staff.recoveryCodeHashes}, ${hash})` })
      .where(and(eq(staff.id, member.id), sql`${hash} = any(${staff.recoveryCodeHashes})`))
      .returning({ left: sql<number>`cardinality(${staff.recoveryCodeHashes})` });
    if (spent.length !== 1) return false;
    // Which code, never: only that one was spent and how many are left.
    const after = { recovery_codes_left: spent[0]!.left };
    await recordAudit(
      tx,
      {
        staffId: member.id,
        action: "staff.recovery_code_used",
        entity: "staff",
        entityId: member.id,
        after,
      },
      now,
    );
    return true;
  });
}
