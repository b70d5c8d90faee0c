import type { Database, Transaction } from "../db/client.ts";
import { auditLog } from "../db/schema.ts";

/** One staff change as the audit log keeps it; `before`/`after` hold only the fields that changed. */
export type AuditEntry = {
  /** Null when Paystack caused the change (decision 102). */
  staffId: number | null;
  action: string;
  entity: string;
  entityId?: string | number | null;
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
  /** A student who changed something of their own (a password set from a link); staffId is null then. */
  byStudentId?: number | null;
  /** The id of the import's summary row this row belongs to (recordImportAudits sets it). */
  partOf?: number | null;
};

const toRow = (entry: AuditEntry, at: Date) => ({
  staffId: entry.staffId,
  at,
  action: entry.action,
  entity: entry.entity,
  entityId: entry.entityId === undefined || entry.entityId === null ? null : String(entry.entityId),
  before: entry.before ?? null,
  after: entry.after ?? null,
  byStudentId: entry.byStudentId ?? null,
  partOf: entry.partOf ?? null,
});

/** Writes the audit row inside the caller's transaction, so a change is never kept without its record; answers its id. */
export async function recordAudit(
  db: Database | Transaction,
  entry: AuditEntry,
  at: Date,
): Promise<number> {
  const [row] = await db.insert(auditLog).values(toRow(entry, at)).returning({ id: auditLog.id });
  return row!.id;
}

/** The fields of `after` that differ from `before`, with both sides, for a compact audit row. */
export function changedFields(before: Record<string, unknown>, after: Record<string, unknown>) {
  const was: Record<string, unknown> = {};
  const now: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(after)) {
    if (value === undefined) continue;
    if (JSON.stringify(before[key]) !== JSON.stringify(value)) {
      was[key] = before[key] ?? null;
      now[key] = value;
    }
  }
  return { before: was, after: now, changed: Object.keys(now).length > 0 };
}

/** Many audit rows, a few hundred per statement: an import changes thousands of records in one transaction. */
export async function recordAudits(db: Database | Transaction, entries: AuditEntry[], at: Date) {
  for (let start = 0; start < entries.length; start += 500) {
    await db
      .insert(auditLog)
      .values(entries.slice(start, start + 500).map((entry) => toRow(entry, at)));
  }
}

/**
 * An import as the log keeps it: one summary row for the file (its counts in `after`), and the
 * row of each record it wrote, each pointing at the summary, so the log shows one line per file
 * and opens onto its records.
 */
export async function recordImportAudits(
  db: Database | Transaction,
  summary: AuditEntry,
  entries: AuditEntry[],
  at: Date,
) {
  const partOf = await recordAudit(db, summary, at);
  await recordAudits(
    db,
    entries.map((entry) => ({ ...entry, partOf })),
    at,
  );
  return partOf;
}
