import { and, eq, isNull } from "drizzle-orm";
import type { Database, Transaction } from "../../db/client.ts";
import { academicSessions, feeSchedule } from "../../db/schema.ts";
import { ApiError } from "../../http/errors.ts";
import { recordAudit } from "../../audit/audit.ts";
import type { Author } from "../../structure/structure-writes.ts";
import { OTHER_FEE_KINDS, type OtherFeeKind } from "../../../common/payments/fee-kinds.ts";
import type { FeePage } from "../../../common/payments/fee-schedule.ts";
import type { GatewayName } from "../../../common/payments/gateway-names.ts";
import { auditView, creditedAgainst } from "./fee-keys.ts";
import { refuseIfSplit } from "./fee-split.ts";

/** Each college-wide fee (a transcript's) with the one in force, for the bursar's fee page. */
export async function otherFees(db: Database): Promise<FeePage["other_fees"]> {
  const rows = await db.select().from(feeSchedule).where(isNull(feeSchedule.replacedAt));
  return Promise.all(
    OTHER_FEE_KINDS.map(async ({ kind, label }) => {
      const fee = rows.find((row) => row.kind === kind);
      return {
        kind,
        label,
        fee: fee
          ? {
              id: fee.id,
              amount_kobo: fee.amountKobo,
              credited_payments: await creditedAgainst(db, fee.id),
              gateways: fee.allowedGateways,
            }
          : null,
      };
    }),
  );
}

/**
 * Sets a college-wide fee's amount and the gateways it may be paid through (decisions 182, 189):
 * the first one is added; one nobody has paid changes; one that has been paid is kept for its
 * receipts and replaced by a new one, as the school-fee schedule does. Its gateways alone may
 * change at any time, in place.
 */
export async function setOtherFee(
  tx: Transaction,
  author: Author,
  kind: OtherFeeKind,
  change: { amountKobo: number; allowedGateways?: GatewayName[] },
): Promise<"added" | "changed" | "replaced" | "unchanged"> {
  const [existing] = await tx
    .select()
    .from(feeSchedule)
    .where(and(eq(feeSchedule.kind, kind), isNull(feeSchedule.replacedAt)))
    .for("update");
  const { amountKobo } = change;
  const allowedGateways = change.allowedGateways ?? existing?.allowedGateways ?? [];
  const sameGateways = existing?.allowedGateways.join() === allowedGateways.join();
  if (existing && existing.amountKobo === amountKobo && sameGateways) return "unchanged";
  if (
    existing &&
    (existing.amountKobo === amountKobo || (await creditedAgainst(tx, existing.id)) === 0)
  ) {
    if (existing.amountKobo !== amountKobo) await refuseIfSplit(tx, existing.id);
    await tx
      .update(feeSchedule)
      .set({ amountKobo, allowedGateways })
      .where(eq(feeSchedule.id, existing.id));
    const change = { staffId: author.staffId, action: "fee.update", entity: "fee" };
    const before: Record<string, unknown> = {};
    const after: Record<string, unknown> = {};
    if (existing.amountKobo !== amountKobo) {
      before.amount_kobo = existing.amountKobo;
      after.amount_kobo = amountKobo;
    }
    if (!sameGateways) {
      before.allowed_gateways = existing.allowedGateways;
      after.allowed_gateways = allowedGateways;
    }
    await recordAudit(tx, { ...change, entityId: existing.id, before, after }, author.at);
    return "changed";
  }
  if (existing) {
    await tx
      .update(feeSchedule)
      .set({ replacedAt: author.at })
      .where(eq(feeSchedule.id, existing.id));
  }
  const [current] = await tx
    .select({ name: academicSessions.name })
    .from(academicSessions)
    .where(eq(academicSessions.isCurrent, true));
  if (!current) {
    throw new ApiError(409, "There is no current session yet: the registry sets one first.");
  }
  const [fee] = await tx
    .insert(feeSchedule)
    .values({
      kind,
      // One price for the college: no level, programme or mode; the session says when it was set.
      paymentOption: kind,
      level: 0,
      session: current.name,
      amountKobo,
      allowedGateways,
    })
    .returning();
  await recordAudit(
    tx,
    {
      staffId: author.staffId,
      action: existing ? "fee.replace" : "fee.create",
      entity: "fee",
      entityId: fee!.id,
      before: existing ? { id: existing.id, amount_kobo: existing.amountKobo } : null,
      after: { kind, ...auditView(fee!) },
    },
    author.at,
  );
  return existing ? "replaced" : "added";
}
