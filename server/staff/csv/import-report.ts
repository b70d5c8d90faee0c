import type { RowRefusal } from "./csv-file.ts";

/**
 * What an import answers. A real run writes every row or none (docs/decisions/081): `written`
 * says which happened, so a report can never be read as "some rows went in".
 */
export type ImportReport = {
  dry_run: boolean;
  written: boolean;
  created: number;
  updated: number;
  unchanged: number;
  rejected: RowRefusal[];
  message: string;
};

export function importReport(counts: { created: number; updated: number; unchanged: number }, rejected: RowRefusal[], dryRun: boolean): ImportReport {
  const written = !dryRun && rejected.length === 0;
  const rows = counts.created + counts.updated + counts.unchanged;
  const message = rejected.length
    ? `${rejected.length} row${rejected.length === 1 ? "" : "s"} cannot be imported; nothing was written. Correct ${rejected.length === 1 ? "it" : "them"} and import the whole file again.`
    : dryRun
      ? `Dry run: ${counts.created} would be created, ${counts.updated} updated, ${counts.unchanged} unchanged. Nothing was written.`
      : `Imported ${rows} row${rows === 1 ? "" : "s"}: ${counts.created} created, ${counts.updated} updated, ${counts.unchanged} unchanged.`;
  return { dry_run: dryRun, written, ...counts, rejected, message };
}
