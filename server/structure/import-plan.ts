import type { Database, Transaction } from "../db/client.ts";
import { importReport, type ImportReport } from "../csv/import-report.ts";
import { withUniqueNames } from "./structure-checks.ts";
import type { Cell } from "../../common/structure/structure-cells.ts";
import type { RowRefusal } from "../csv/csv-file.ts";
import { differs, type Author } from "./structure-writes.ts";
import { recordAudit } from "../audit/audit.ts";

/** One accepted row: what it would do, and how to do it inside the import's transaction. */
export type PlannedRow = {
  outcome: "create" | "update" | "unchanged";
  write: (tx: Transaction, author: Author) => Promise<unknown>;
};

/** Every row of a file checked against the database: accepted rows and refused ones. */
export type ImportPlan = { planned: PlannedRow[]; rejected: RowRefusal[] };

/**
 * A row matched by its natural key: created when `existing` is null, updated when a value
 * differs, left alone otherwise (so importing the same file twice changes nothing).
 */
export function plannedRow<
  Values extends Record<string, unknown>,
  Existing extends { id: number } & Record<string, unknown>,
>(
  existing: Existing | undefined,
  values: Values,
  save: (
    tx: Transaction,
    author: Author,
    existing: Existing | null,
    values: Values,
  ) => Promise<unknown>,
): PlannedRow {
  const outcome = !existing ? "create" : differs(existing, values) ? "update" : "unchanged";
  return {
    outcome,
    write: async (tx, author) =>
      outcome === "unchanged" ? undefined : save(tx, author, existing ?? null, values),
  };
}

/** Collects the refusals of one file, and notices a key listed twice. */
export function createRowChecker() {
  const rejected: RowRefusal[] = [];
  const firstRowOf = new Map<string, number>();
  return {
    rejected,
    refuse(row: number, field: string, message: string) {
      rejected.push({ row, field, message });
    },
    /** The cell's value, or undefined after recording its problem. */
    read<T>(row: number, field: string, cell: Cell<T>): T | undefined {
      if ("value" in cell) return cell.value;
      rejected.push({ row, field, message: cell.problem });
      return undefined;
    },
    /** False (and a refusal) when `key` was already on an earlier row of the file. */
    firstTime(row: number, field: string, key: string, label: string) {
      const earlier = firstRowOf.get(key);
      if (earlier !== undefined) {
        rejected.push({
          row,
          field,
          message: `${label} is already on row ${earlier}; list each one once.`,
        });
        return false;
      }
      firstRowOf.set(key, row);
      return true;
    },
  };
}

export function countOutcomes(planned: PlannedRow[]) {
  const count = (outcome: PlannedRow["outcome"]) =>
    planned.filter((row) => row.outcome === outcome).length;
  return { created: count("create"), updated: count("update"), unchanged: count("unchanged") };
}

/**
 * Checks a file with `plan` and, for a real run with no refused row, writes it: all in one
 * transaction, so every row is written or none (decisions 081 and 083).
 */
export function runImport(
  db: Database,
  dryRun: boolean,
  author: Author,
  plan: (tx: Transaction) => Promise<ImportPlan>,
  /** The file's summary row in the audit log (e.g. fee.import on fee_import); each row's audit links to it. */
  summary?: { action: string; entity: string },
): Promise<ImportReport> {
  return withUniqueNames(() =>
    db.transaction(async (tx) => {
      const { planned, rejected } = await plan(tx);
      const counts = countOutcomes(planned);
      if (dryRun || rejected.length > 0) return importReport(counts, rejected, dryRun);
      const writes = counts.created + counts.updated > 0;
      const partOf =
        summary && writes
          ? await recordAudit(tx, { staffId: author.staffId, ...summary, after: counts }, author.at)
          : undefined;
      for (const row of planned) await row.write(tx, { ...author, partOf });
      return importReport(counts, [], false);
    }),
  );
}
