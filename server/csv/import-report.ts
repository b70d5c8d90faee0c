import type { Context } from "hono";
import type { ImportReport, RowChanges } from "../../common/csv/import-report.ts";
import type { RowRefusal } from "./csv-file.ts";

export type { ImportReport, RowChanges };

/** The report for counted rows; a real run is written only when no row was refused (decision 081). */
export function importReport(
  counts: { created: number; updated: number; unchanged: number },
  rejected: RowRefusal[],
  dryRun: boolean,
  changes?: RowChanges[],
): ImportReport {
  const written = !dryRun && rejected.length === 0;
  const rows = counts.created + counts.updated + counts.unchanged;
  const message = rejected.length
    ? `${rejected.length} row${rejected.length === 1 ? "" : "s"} cannot be imported; nothing was written. Correct ${rejected.length === 1 ? "it" : "them"} and import the whole file again.`
    : dryRun
      ? `Dry run: ${counts.created} would be created, ${counts.updated} updated, ${counts.unchanged} unchanged. Nothing was written.`
      : `Imported ${rows} row${rows === 1 ? "" : "s"}: ${counts.created} created, ${counts.updated} updated, ${counts.unchanged} unchanged.`;
  return {
    dry_run: dryRun,
    written,
    ...counts,
    rejected,
    ...(changes ? { changes } : {}),
    message,
  };
}

/**
 * The import's answer, the same for every kind of file: the report itself, 200 for a dry run or
 * a written file, 422 for a real run that wrote nothing (with the same report as a dry run).
 */
export function answerImport(c: Context, report: ImportReport) {
  if (!report.dry_run && !report.written) {
    return c.json({ status: "error", ...report, error: { message: report.message } }, 422);
  }
  return c.json({ status: "success", ...report });
}
