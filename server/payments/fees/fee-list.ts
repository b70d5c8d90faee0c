import { and, asc, count, desc, eq, isNull, sql, type SQL } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import type { ApiDeps } from "../../deps.ts";
import { GATEWAY_LABELS, type GatewayName } from "../../../common/payments/gateway-names.ts";
import {
  academicSessions,
  feeSchedule,
  feeSplitItems,
  payments,
  programmes,
  studyModes,
} from "../../db/schema.ts";
import type { z } from "zod";
import type { FeePage, FeeQuery, StaffFee } from "../../../common/payments/fee-schedule.ts";
import { otherFees } from "./other-fees.ts";

export const FEE_PAGE_SIZE = 50;

type Filters = Omit<z.infer<typeof FeeQuery>, "page">;

/** The fees in force matching the filters, in the order the schedule reads: session, programme, level, option. */
export function feesInForce(db: Database, filters: Filters) {
  // Other kinds of fee (a transcript) are one college-wide price each, listed apart (decision 182).
  const conditions: SQL[] = [isNull(feeSchedule.replacedAt), eq(feeSchedule.kind, "school_fee")];
  if (filters.session) conditions.push(eq(feeSchedule.session, filters.session));
  if (filters.programme === "all") conditions.push(isNull(feeSchedule.programmeId));
  else if (filters.programme) conditions.push(eq(feeSchedule.programmeId, filters.programme));
  if (filters.level) conditions.push(eq(feeSchedule.level, filters.level));
  const credited = db
    .select({ feeId: payments.feeId, value: count().as("credited") })
    .from(payments)
    .where(eq(payments.status, "success"))
    .groupBy(payments.feeId)
    .as("credited");
  const split = db
    .select({ feeId: feeSplitItems.feeId, value: count().as("split_accounts") })
    .from(feeSplitItems)
    .groupBy(feeSplitItems.feeId)
    .as("split");
  return db
    .select({
      fee: feeSchedule,
      programme: programmes.name,
      credited: credited.value,
      splitAccounts: split.value,
    })
    .from(feeSchedule)
    .leftJoin(programmes, eq(programmes.id, feeSchedule.programmeId))
    .leftJoin(credited, eq(credited.feeId, feeSchedule.id))
    .leftJoin(split, eq(split.feeId, feeSchedule.id))
    .where(and(...conditions))
    .orderBy(
      desc(feeSchedule.session),
      sql`${programmes.name} nulls first`,
      asc(feeSchedule.level),
      sql`${feeSchedule.studyMode} nulls first`,
      asc(feeSchedule.paymentOption),
    )
    .$dynamic();
}

/** The gateways a fee may be paid through, as the bursar's notice says it. */
export function gatewaysInWords(
  deps: Pick<ApiDeps, "offeredGateways">,
  allowed: readonly GatewayName[],
): string {
  const names = (list: readonly GatewayName[]) =>
    list.map((name) => GATEWAY_LABELS[name]).join(" and ");
  return allowed.length
    ? `${names(allowed)} only`
    : `every gateway the portal offers (${names(deps.offeredGateways)})`;
}

export async function feePage(
  deps: Pick<ApiDeps, "db" | "offeredGateways">,
  query: z.infer<typeof FeeQuery>,
): Promise<FeePage> {
  const { db } = deps;
  const { page, ...filters } = query;
  const rows = await feesInForce(db, filters)
    .limit(FEE_PAGE_SIZE)
    .offset((page - 1) * FEE_PAGE_SIZE);
  const [total] = await db.select({ value: count() }).from(feesInForce(db, filters).as("matching"));
  const data: StaffFee[] = rows.map(({ fee, programme, credited, splitAccounts }) => ({
    id: fee.id,
    session: fee.session,
    programme_id: fee.programmeId,
    programme: programme ?? null,
    level: fee.level,
    study_mode: fee.studyMode,
    payment_option: fee.paymentOption,
    amount_kobo: fee.amountKobo,
    credited_payments: Number(credited ?? 0),
    gateways: fee.allowedGateways,
    split_accounts: Number(splitAccounts ?? 0),
  }));
  const sessions = await db
    .select({
      id: academicSessions.id,
      name: academicSessions.name,
      is_current: academicSessions.isCurrent,
      late_fees_from: academicSessions.lateFeesFrom,
    })
    .from(academicSessions)
    .orderBy(desc(academicSessions.name));
  const programmeList = await db
    .select({ id: programmes.id, name: programmes.name })
    .from(programmes)
    .orderBy(asc(programmes.name));
  // The registry's list (decision 154): a fee can name only a mode on it.
  const modes = await db
    .select({ mode: studyModes.name })
    .from(studyModes)
    .orderBy(asc(studyModes.name));
  return {
    data,
    total: total?.value ?? 0,
    page,
    page_size: FEE_PAGE_SIZE,
    sessions,
    programmes: programmeList,
    study_modes: modes.map((row) => row.mode),
    offered_gateways: deps.offeredGateways.map((name) => ({ name, label: GATEWAY_LABELS[name] })),
    other_fees: await otherFees(db),
  };
}
