import { and, eq, isNull, isNotNull } from "drizzle-orm";
import type { Transaction } from "../../db/client.ts";
import { academicSessions, feeSchedule, payments, programmes } from "../../db/schema.ts";
import { formatNaira, koboToNaira } from "../../../common/format/money.ts";
import {
  ALL,
  FEE_CSV_HEADER,
  readAmount,
  readPaymentOption,
  readSessionName,
  readStudyMode,
} from "../../../common/payments/fee-schedule.ts";
import { nameKey, readLevel } from "../../../common/structure/structure-cells.ts";
import { recordAudit } from "../../audit/audit.ts";
import type { CsvRow } from "../../csv/csv-file.ts";
import {
  createRowChecker,
  plannedRow,
  type ImportPlan,
  type PlannedRow,
} from "../../structure/import-plan.ts";
import { loadModes } from "../../structure/modes.ts";
import { auditView, noSuchSession, type FeeKey, type FeeRow } from "./fee-keys.ts";
import type { FeeValues } from "./fee-writes.ts";
import { SPLIT_FEE_AMOUNT_IS_FIXED, splitFeeIds } from "./fee-split.ts";
import type { Author } from "../../structure/structure-writes.ts";

type Rows = CsvRow<(typeof FEE_CSV_HEADER)[number]>[];

const keyText = (key: FeeKey) =>
  [
    key.session,
    key.programmeId ?? 0,
    key.level,
    (key.studyMode ?? "").toLowerCase(),
    key.paymentOption,
  ].join("|");

/** Writes one planned fee: a new one, or a new amount for one nobody has paid (checked when planning). */
async function saveFee(
  tx: Transaction,
  author: Author,
  existing: FeeRow | null,
  values: FeeValues,
) {
  const [saved] = existing
    ? await tx
        .update(feeSchedule)
        .set({ amountKobo: values.amountKobo })
        .where(eq(feeSchedule.id, existing.id))
        .returning()
    : await tx.insert(feeSchedule).values(values).returning();
  const entry = existing
    ? {
        action: "fee.update",
        before: { amount_kobo: existing.amountKobo },
        after: { amount_kobo: values.amountKobo },
      }
    : { action: "fee.create", after: auditView(saved!) };
  await recordAudit(
    tx,
    {
      staffId: author.staffId,
      entity: "fee",
      entityId: saved!.id,
      partOf: author.partOf,
      ...entry,
    },
    author.at,
  );
}

/**
 * Checks a fee schedule file against the database (decision 095): sessions and programmes must
 * exist; a row matching a fee in force changes its amount, unless students have paid that fee.
 */
export async function planFeeImport(tx: Transaction, rows: Rows): Promise<ImportPlan> {
  const check = createRowChecker();
  const sessions = new Set(
    (await tx.select({ name: academicSessions.name }).from(academicSessions)).map(
      (row) => row.name,
    ),
  );
  const programmeByName = new Map(
    (await tx.select().from(programmes)).map((row) => [nameKey(row.name), row]),
  );
  const existing = new Map(
    (
      await tx
        .select()
        .from(feeSchedule)
        .where(and(isNull(feeSchedule.replacedAt), eq(feeSchedule.kind, "school_fee")))
    ).map((fee) => [keyText(fee), fee]),
  );
  const modes = await loadModes(tx);
  const paid = new Set(
    (
      await tx
        .selectDistinct({ id: payments.feeId })
        .from(payments)
        .where(and(eq(payments.status, "success"), isNotNull(payments.feeId)))
    ).map((row) => row.id),
  );
  const split = await splitFeeIds(tx);
  const planned: PlannedRow[] = [];
  for (const { row, values } of rows) {
    const session = check.read(row, "session", readSessionName(values.session));
    if (session !== undefined && !sessions.has(session))
      check.refuse(row, "session", noSuchSession(session));
    const allProgrammes = values.programme === "" || values.programme.toLowerCase() === ALL;
    const programme = allProgrammes ? null : programmeByName.get(nameKey(values.programme));
    if (programme === undefined)
      check.refuse(
        row,
        "programme",
        `There is no programme named "${values.programme}". Check the spelling, or write "all".`,
      );
    const level = check.read(row, "level", readLevel(values.level));
    const written = check.read(row, "study_mode", readStudyMode(values.study_mode));
    // A fee names a mode on the registry's list, in any spelling of it; an unknown one is refused
    // with the list, so no fee waits for students who can never match it (decision 154).
    const studyMode =
      written === null || written === undefined ? written : modes.study.find(written);
    if (written && studyMode === undefined)
      check.refuse(row, "study_mode", modes.study.unknown(written));
    const paymentOption = check.read(
      row,
      "payment_option",
      readPaymentOption(values.payment_option),
    );
    const amountKobo = check.read(row, "amount_naira", readAmount(values.amount_naira));
    if (
      session === undefined ||
      !sessions.has(session) ||
      programme === undefined ||
      level === undefined
    )
      continue;
    if (studyMode === undefined || paymentOption === undefined || amountKobo === undefined)
      continue;
    const fee: FeeValues = {
      session,
      programmeId: programme?.id ?? null,
      level,
      studyMode,
      paymentOption,
      amountKobo,
    };
    if (!check.firstTime(row, "payment_option", keyText(fee), "This fee")) continue;
    const found = existing.get(keyText(fee));
    if (found && found.amountKobo !== amountKobo && paid.has(found.id)) {
      check.refuse(
        row,
        "amount_naira",
        `Students have paid this fee at ${formatNaira(koboToNaira(found.amountKobo))}, so it cannot change. Add the new fee on the fee schedule page: it replaces this one for new payments.`,
      );
      continue;
    }
    if (found && found.amountKobo !== amountKobo && split.has(found.id)) {
      check.refuse(row, "amount_naira", SPLIT_FEE_AMOUNT_IS_FIXED);
      continue;
    }
    planned.push(
      plannedRow(found, { amountKobo }, (tx, author, old) => saveFee(tx, author, old, fee)),
    );
  }
  return { planned, rejected: check.rejected };
}
