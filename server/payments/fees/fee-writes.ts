import { eq } from "drizzle-orm";
import type { Transaction } from "../../db/client.ts";
import { feeSchedule } from "../../db/schema.ts";
import { ApiError } from "../../http/errors.ts";
import { formatNaira, koboToNaira } from "../../../common/format/money.ts";
import { PAID_FEE_IS_FIXED } from "../../../common/payments/fee-schedule.ts";
import { recordAudit } from "../../audit/audit.ts";
import type { Author } from "../../structure/structure-writes.ts";
import type { GatewayName } from "../../../common/payments/gateway-names.ts";
import { refuseIfSplit, splitOf } from "./fee-split.ts";
import { auditView, creditedAgainst, feeInForce, type FeeKey, type FeeRow } from "./fee-keys.ts";

/** A fee's identity, amount, and the gateways allowed for it (unset or empty: every one offered). */
export type FeeValues = FeeKey & { amountKobo: number; allowedGateways?: GatewayName[] };

const naira = (kobo: number) => formatNaira(koboToNaira(kobo));

/**
 * Adds a fee. When one with the same key is in force: if students have paid against it, the new
 * fee replaces it (the old one is kept, marked replaced, so paid receipts still match it);
 * otherwise 409, since its amount can simply be edited.
 */
export async function addFee(
  tx: Transaction,
  author: Author,
  values: FeeValues,
): Promise<{ fee: FeeRow; replaced: FeeRow | null; replacedWasSplit: boolean }> {
  const existing = await feeInForce(tx, values);
  if (existing && (await creditedAgainst(tx, existing.id)) === 0) {
    throw new ApiError(
      409,
      `This fee is already set at ${naira(existing.amountKobo)} and nobody has paid it yet: edit its amount instead.`,
    );
  }
  if (existing)
    await tx
      .update(feeSchedule)
      .set({ replacedAt: author.at })
      .where(eq(feeSchedule.id, existing.id));
  const [fee] = await tx.insert(feeSchedule).values(values).returning();
  const action = existing ? "fee.replace" : "fee.create";
  const before = existing ? { id: existing.id, amount_kobo: existing.amountKobo } : null;
  await recordAudit(
    tx,
    {
      staffId: author.staffId,
      action,
      entity: "fee",
      entityId: fee!.id,
      before,
      after: auditView(fee!),
    },
    author.at,
  );
  // The old fee's split added up to the old amount: the new fee starts without one (decision 190).
  const replacedWasSplit = existing ? (await splitOf(tx, existing.id)).length > 0 : false;
  return { fee: fee!, replaced: existing ?? null, replacedWasSplit };
}

/**
 * Changes a fee's amount, refused with the reason once a payment against it has been credited,
 * and the gateways it may be paid through, which may change at any time: a receipt does not
 * depend on them, and payments already started keep their own gateway.
 */
export async function changeFee(
  tx: Transaction,
  author: Author,
  id: number,
  change: { amountKobo?: number; allowedGateways?: GatewayName[] },
): Promise<FeeRow> {
  const [fee] = await tx.select().from(feeSchedule).where(eq(feeSchedule.id, id)).for("update");
  if (!fee) throw new ApiError(404, "There is no such fee. Reload the list.");
  if (fee.replacedAt)
    throw new ApiError(
      409,
      "This fee has been replaced by a newer one. Reload the list and change that one.",
    );
  const amountKobo = change.amountKobo ?? fee.amountKobo;
  const allowedGateways = change.allowedGateways ?? fee.allowedGateways;
  if (amountKobo !== fee.amountKobo && (await creditedAgainst(tx, id)) > 0)
    throw new ApiError(409, PAID_FEE_IS_FIXED);
  const before: Record<string, unknown> = {};
  const after: Record<string, unknown> = {};
  if (amountKobo !== fee.amountKobo) {
    // A split adds up to the amount: it is removed before the amount changes (decision 190).
    await refuseIfSplit(tx, id);
    before.amount_kobo = fee.amountKobo;
    after.amount_kobo = amountKobo;
  }
  if (allowedGateways.join() !== fee.allowedGateways.join()) {
    before.allowed_gateways = fee.allowedGateways;
    after.allowed_gateways = allowedGateways;
  }
  if (!Object.keys(after).length) return fee;
  const [saved] = await tx
    .update(feeSchedule)
    .set({ amountKobo, allowedGateways })
    .where(eq(feeSchedule.id, id))
    .returning();
  const entry = { staffId: author.staffId, action: "fee.update", entity: "fee", entityId: id };
  await recordAudit(tx, { ...entry, before, after }, author.at);
  return saved!;
}
