import { asc, eq, sql } from "drizzle-orm";
import type { Database, Transaction } from "../../db/client.ts";
import { preparedQuery } from "../../db/prepared.ts";
import { feeSchedule, feeSplitItems, programmes } from "../../db/schema.ts";
import { ApiError } from "../../http/errors.ts";
import { recordAudit } from "../../audit/audit.ts";
import { formatKobo } from "../../../common/payments/bursary.ts";
import type {
  FeeSplitItem,
  FeeSplitPage,
  FeeSplitRequest,
} from "../../../common/payments/fee-split.ts";
import type { Author } from "../../structure/structure-writes.ts";

const naira = (kobo: number) => formatKobo(kobo);

/** Why a split fee's amount cannot simply change, and what to do instead (decision 190). */
export const SPLIT_FEE_AMOUNT_IS_FIXED =
  "This fee is split between accounts on Remita, and the split must add up to the fee. Remove the split on the fee's page, change the amount, then set the split again for the new amount.";

/** One line item of a Remita payment, as `OfflineChargeInput.lineItems` takes it. */
export type RemitaLineItem = {
  /** Unique within the RRR (Remita's `lineItemsId`). */
  id: string;
  beneficiaryName: string;
  beneficiaryAccount: string;
  bankCode: string;
  amountKobo: number;
  bearsCharge: boolean;
};

type SplitRow = typeof feeSplitItems.$inferSelect;

const toItem = (row: SplitRow): FeeSplitItem => ({
  beneficiary_name: row.beneficiaryName,
  beneficiary_account: row.beneficiaryAccount,
  bank_code: row.bankCode,
  amount_kobo: row.amountKobo,
  bears_charge: row.bearsCharge,
});

/** A fee's split, in the bursar's order; empty when the fee has none. */
export function splitOf(db: Database | Transaction, feeId: number) {
  return db
    .select()
    .from(feeSplitItems)
    .where(eq(feeSplitItems.feeId, feeId))
    .orderBy(asc(feeSplitItems.position));
}

/** What the fee's page shows: the fee, and how Remita splits it. */
export async function feeSplitPage(db: Database, feeId: number): Promise<FeeSplitPage> {
  const [row] = await db
    .select({ fee: feeSchedule, programme: programmes.name })
    .from(feeSchedule)
    .leftJoin(programmes, eq(programmes.id, feeSchedule.programmeId))
    .where(eq(feeSchedule.id, feeId));
  if (!row) throw new ApiError(404, "There is no such fee. Reload the list.");
  const { fee } = row;
  return {
    fee: {
      id: fee.id,
      kind: fee.kind,
      session: fee.session,
      programme: row.programme,
      level: fee.level,
      study_mode: fee.studyMode,
      payment_option: fee.paymentOption,
      amount_kobo: fee.amountKobo,
      replaced: fee.replacedAt !== null,
    },
    items: (await splitOf(db, feeId)).map(toItem),
  };
}

/**
 * Replaces a fee's split (none: removes it), in one transaction with its audit row. The fee row
 * is locked as an amount change locks it, so an amount and a split never change past each other:
 * the split saved always adds up to the fee in force.
 */
export async function setFeeSplit(
  tx: Transaction,
  author: Author,
  feeId: number,
  request: FeeSplitRequest,
): Promise<{ amountKobo: number; items: FeeSplitItem[]; changed: boolean }> {
  const [fee] = await tx.select().from(feeSchedule).where(eq(feeSchedule.id, feeId)).for("update");
  if (!fee) throw new ApiError(404, "There is no such fee. Reload the list.");
  if (fee.replacedAt)
    throw new ApiError(
      409,
      "This fee has been replaced by a newer one, so its split is kept as it was. Set the split on the fee in force.",
    );
  const items: FeeSplitItem[] = request.items.map((item) => ({
    beneficiary_name: item.beneficiary_name,
    beneficiary_account: item.beneficiary_account,
    bank_code: item.bank_code,
    amount_kobo: item.amount_naira,
    bears_charge: item.bears_charge,
  }));
  const total = items.reduce((sum, item) => sum + item.amount_kobo, 0);
  if (items.length && total !== fee.amountKobo) {
    const gap = total < fee.amountKobo ? "short" : "over";
    const message = `The accounts add up to ${naira(total)}, but the fee is ${naira(fee.amountKobo)} (${naira(Math.abs(total - fee.amountKobo))} ${gap}). A split must add up to the fee exactly.`;
    throw new ApiError(400, message, { fields: { items: message } });
  }
  const before = (await splitOf(tx, feeId)).map(toItem);
  if (JSON.stringify(before) === JSON.stringify(items))
    return { amountKobo: fee.amountKobo, items, changed: false };
  await tx.delete(feeSplitItems).where(eq(feeSplitItems.feeId, feeId));
  if (items.length) {
    await tx.insert(feeSplitItems).values(
      items.map((item, index) => ({
        feeId,
        position: index + 1,
        beneficiaryName: item.beneficiary_name,
        beneficiaryAccount: item.beneficiary_account,
        bankCode: item.bank_code,
        amountKobo: item.amount_kobo,
        bearsCharge: item.bears_charge,
      })),
    );
  }
  await recordAudit(
    tx,
    {
      staffId: author.staffId,
      action: items.length ? "fee.split" : "fee.split_remove",
      entity: "fee",
      entityId: feeId,
      before: { items: before },
      after: { items },
    },
    author.at,
  );
  return { amountKobo: fee.amountKobo, items, changed: true };
}

/** 409 when the fee has a split: its amount cannot change under it (decision 190). */
export async function refuseIfSplit(tx: Transaction, feeId: number) {
  const [item] = await tx
    .select({ id: feeSplitItems.id })
    .from(feeSplitItems)
    .where(eq(feeSplitItems.feeId, feeId))
    .limit(1);
  if (item) throw new ApiError(409, SPLIT_FEE_AMOUNT_IS_FIXED);
}

/** The ids of the fees that have a split, for an import that checks many fees at once. */
export async function splitFeeIds(tx: Transaction): Promise<Set<number>> {
  const rows = await tx.selectDistinct({ id: feeSplitItems.feeId }).from(feeSplitItems);
  return new Set(rows.map((row) => row.id));
}

// Every Remita payment start asks it: prepared once (decision 112).
const lineItemsQuery = preparedQuery((db) =>
  db
    .select({ option: feeSchedule.paymentOption, item: feeSplitItems })
    .from(feeSchedule)
    .leftJoin(feeSplitItems, eq(feeSplitItems.feeId, feeSchedule.id))
    .where(eq(feeSchedule.id, sql.placeholder("feeId")))
    .orderBy(asc(feeSplitItems.position))
    .prepare("remita_line_items"),
);

/**
 * The line items of a Remita payment of `amountKobo` against a fee: its split, or none (an empty
 * list, a real answer: Remita pays the whole amount into the service type's own account). Each
 * installment is a fee of its own with its own split, so the amounts are the bursar's as saved.
 * A payment whose amount is not the split's total (one started at the fee's amount before it
 * changed) is split in the same proportions, each share rounded down to the kobo and the
 * remainder to the account that bears Remita's charge, so the items always add up to the payment.
 */
export async function remitaLineItemsFor(
  db: Database | Transaction,
  payment: { feeId: number | null; paymentOption: string; amountKobo: number },
): Promise<RemitaLineItem[]> {
  if (payment.feeId === null) return [];
  const rows = await lineItemsQuery(db).execute({ feeId: payment.feeId });
  if (rows[0] && rows[0].option !== payment.paymentOption)
    throw new Error(
      `fee ${payment.feeId} is for ${rows[0].option}, not the payment's ${payment.paymentOption}`,
    );
  const items = rows.flatMap((row) => (row.item ? [row.item] : []));
  if (!items.length) return [];
  const total = items.reduce((sum, item) => sum + item.amountKobo, 0);
  const shareOf = (item: SplitRow) =>
    total === payment.amountKobo
      ? item.amountKobo
      : Number((BigInt(item.amountKobo) * BigInt(payment.amountKobo)) / BigInt(total));
  const shares = new Map(
    items.filter((item) => !item.bearsCharge).map((item) => [item.id, shareOf(item)]),
  );
  const given = [...shares.values()].reduce((sum, share) => sum + share, 0);
  return items
    .map((item) => ({
      id: `item${item.position}`,
      beneficiaryName: item.beneficiaryName,
      beneficiaryAccount: item.beneficiaryAccount,
      bankCode: item.bankCode,
      amountKobo: item.bearsCharge ? payment.amountKobo - given : shares.get(item.id)!,
      bearsCharge: item.bearsCharge,
    }))
    .filter((item) => item.amountKobo > 0);
}
