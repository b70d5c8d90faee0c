import { and, count, eq, isNull, sql } from "drizzle-orm";
import type { Database, Transaction } from "../../db/client.ts";
import { academicSessions, feeSchedule, payments, programmes } from "../../db/schema.ts";
import { ApiError } from "../../http/errors.ts";

export type FeeRow = typeof feeSchedule.$inferSelect;

/** What one fee is for; two fees in force never share it (the unique index in schema.ts). */
export type FeeKey = Pick<
  FeeRow,
  "session" | "programmeId" | "level" | "studyMode" | "paymentOption"
>;

/** The fee in force with this key, locked until the caller's transaction ends; undefined when none. */
export async function feeInForce(tx: Transaction, key: FeeKey): Promise<FeeRow | undefined> {
  const [row] = await tx
    .select()
    .from(feeSchedule)
    .where(
      and(
        isNull(feeSchedule.replacedAt),
        eq(feeSchedule.kind, "school_fee"),
        eq(feeSchedule.session, key.session),
        sql`coalesce(${feeSchedule.programmeId}, 0) = ${key.programmeId ?? 0}`,
        eq(feeSchedule.level, key.level),
        sql`lower(coalesce(${feeSchedule.studyMode}, '')) = ${(key.studyMode ?? "").toLowerCase()}`,
        eq(feeSchedule.paymentOption, key.paymentOption),
      ),
    )
    .for("update");
  return row;
}

/** Credited payments made against a fee: one is enough to fix its amount for good. */
export async function creditedAgainst(db: Database | Transaction, feeId: number): Promise<number> {
  const [row] = await db
    .select({ value: count() })
    .from(payments)
    .where(and(eq(payments.feeId, feeId), eq(payments.status, "success")));
  return row?.value ?? 0;
}

/** 400 unless the session exists: fees are set only for sessions the registry has created. */
export async function assertSessionExists(db: Database | Transaction, name: string) {
  const [session] = await db
    .select({ id: academicSessions.id })
    .from(academicSessions)
    .where(eq(academicSessions.name, name));
  if (!session)
    throw new ApiError(400, noSuchSession(name), { fields: { session: noSuchSession(name) } });
}

export async function assertProgrammeExists(db: Database | Transaction, id: number | null) {
  if (id === null) return;
  const [programme] = await db
    .select({ id: programmes.id })
    .from(programmes)
    .where(eq(programmes.id, id));
  const message = "There is no such programme. Choose one from the list, or all programmes.";
  if (!programme) throw new ApiError(400, message, { fields: { programme_id: message } });
}

export const noSuchSession = (name: string) =>
  `There is no ${name} session. The registry creates sessions; choose one from the list.`;

/** The fee's identity and amount as the audit log keeps them. */
export const auditView = (fee: FeeRow) => ({
  session: fee.session,
  programme_id: fee.programmeId,
  level: fee.level,
  study_mode: fee.studyMode,
  payment_option: fee.paymentOption,
  amount_kobo: fee.amountKobo,
  allowed_gateways: fee.allowedGateways,
});
