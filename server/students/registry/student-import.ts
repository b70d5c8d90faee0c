import { eq, inArray, or, sql } from "drizzle-orm";
import type { ApiDeps } from "../../deps.ts";
import type { Database } from "../../db/client.ts";
import { students } from "../../db/schema.ts";
import { unusablePasswordHash } from "../../auth/password.ts";
import { isUniqueViolation } from "../../db/unique-violation.ts";
import { cancelUnusedResetLinks } from "../../password/reset-tokens.ts";
import { cancelUnusedResetCodes } from "../../password/reset-codes.ts";
import { ApiError } from "../../http/errors.ts";
import { STUDENT_IMPORT_COLUMNS } from "../../../common/students/registry.ts";
import { changedFields, recordImportAudits, type AuditEntry } from "../../audit/audit.ts";
import { parseCsv, type RowRefusal } from "../../csv/csv-file.ts";
import { importReport, type RowChanges } from "../../csv/import-report.ts";
import {
  checkAgainstExisting,
  checkRows,
  inFileOrder,
  type CheckedRow,
  type ExistingStudent,
} from "./import-check.ts";
import { loadPlaces, type Places } from "./places.ts";
import { loadModes } from "../../structure/modes.ts";
import { fieldsOf, forAudit, toColumns, type StudentFields } from "./student-fields.ts";

// Rows per statement: well under PostgreSQL's 65,535 parameters for any table here.
const CHUNK = 500;
const chunks = <T>(items: T[]) =>
  Array.from({ length: Math.ceil(items.length / CHUNK) }, (_, at) =>
    items.slice(at * CHUNK, (at + 1) * CHUNK),
  );

/** Students the file's matric numbers, application numbers, phones or e-mails already name. */
async function existingStudentsFor(
  db: Database,
  checked: CheckedRow[],
): Promise<(ExistingStudent & { row: typeof students.$inferSelect })[]> {
  const found = new Map<number, typeof students.$inferSelect>();
  for (const part of chunks(checked)) {
    const values = (field: keyof StudentFields) =>
      part.flatMap((candidate) =>
        candidate.fields[field] === null ? [] : [String(candidate.fields[field])],
      );
    const rows = await db
      .select()
      .from(students)
      .where(
        or(
          inArray(students.matricNo, values("matric_no")),
          inArray(students.applicationNo, values("application_no")),
          inArray(students.phone, values("phone")),
          inArray(sql`lower(${students.email})`, values("email")),
        ),
      );
    for (const row of rows) found.set(row.id, row);
  }
  return [...found.values()].map((row) => ({
    id: row.id,
    matric_no: row.matricNo,
    application_no: row.applicationNo,
    phone: row.phone,
    email: row.email,
    row,
  }));
}

type Plan = {
  create: CheckedRow[];
  update: {
    id: number;
    row: number;
    key: string;
    before: Record<string, unknown>;
    after: Record<string, unknown>;
    fields: StudentFields;
  }[];
  unchanged: number;
};

const shown = (value: unknown) => (value === null || value === undefined ? null : String(value));

/** The report's list of updates: every changed field, old → new, so the officer sees them before the real run. */
const changesOf = (plan: Plan): RowChanges[] =>
  plan.update.map(({ row, key, before, after }) => ({
    row,
    key,
    fields: Object.keys(after).map((field) => ({
      field,
      from: shown(before[field]),
      to: shown(after[field]),
    })),
  }));

/**
 * An import never lowers a level: an old file re-imported after promotion would put every promoted
 * student back. Promotion raises levels; a wrong level is corrected on the student's record.
 */
const loweredLevel = (
  row: number,
  stored: typeof students.$inferSelect,
  level: number,
): RowRefusal => ({
  row,
  field: "level",
  value: String(level),
  message: `${stored.matricNo ?? stored.applicationNo} is at ${stored.level} level on the portal, above this row's ${level}: an import never lowers a level (is this an old file?). Correct a wrong level on the student's record.`,
});

/**
 * Checks a student import file and, unless it is a dry run or any row is refused, writes every
 * row in one transaction (docs/decisions/081). Rows are matched by matric number, so the same
 * file imported twice changes nothing the second time.
 */
export async function importStudents(
  deps: Pick<ApiDeps, "db" | "now">,
  staffId: number,
  text: string,
  dryRun: boolean,
) {
  const { db, now } = deps;
  const places = await loadPlaces(db);
  const own = checkRows(parseCsv(text, STUDENT_IMPORT_COLUMNS), places, await loadModes(db));
  const existing = await existingStudentsFor(db, own.checked);
  const against = checkAgainstExisting(own.checked, existing);
  const lowered: RowRefusal[] = [];

  const rows = new Map(existing.map((student) => [student.id, student.row]));
  const plan: Plan = { create: [], update: [], unchanged: 0 };
  for (const candidate of against.accepted) {
    const current = candidate.existingId === null ? undefined : rows.get(candidate.existingId);
    if (!current) {
      plan.create.push(candidate);
      continue;
    }
    if (candidate.fields.level < current.level) {
      lowered.push(loweredLevel(candidate.row, current, candidate.fields.level));
      continue;
    }
    const diff = changedFields(
      forAudit(fieldsOf(current), places),
      forAudit(candidate.fields, places),
    );
    if (diff.changed)
      plan.update.push({
        id: current.id,
        row: candidate.row,
        key: candidate.fields.matric_no,
        before: diff.before,
        after: diff.after,
        fields: candidate.fields,
      });
    else plan.unchanged += 1;
  }
  const rejected = inFileOrder([...own.refusals, ...against.refusals, ...lowered]);
  const counts = {
    created: plan.create.length,
    updated: plan.update.length,
    unchanged: plan.unchanged,
  };
  // A refused real run writes nothing, and its counts say so: nothing created, nothing updated.
  if (rejected.length > 0 && !dryRun)
    return importReport({ created: 0, updated: 0, unchanged: 0 }, rejected, dryRun, []);
  if (!dryRun) await writePlan(db, plan, places, staffId, now());
  return importReport(counts, rejected, dryRun, changesOf(plan));
}

async function writePlan(db: Database, plan: Plan, places: Places, staffId: number, at: Date) {
  try {
    await db.transaction(async (tx) => {
      const audits: AuditEntry[] = [];
      for (const part of chunks(plan.create)) {
        const created = await tx
          .insert(students)
          .values(
            part.map(({ fields }) => ({
              ...toColumns(fields),
              passwordHash: unusablePasswordHash(),
              createdAt: at,
              updatedAt: at,
            })),
          )
          .returning({ id: students.id });
        created.forEach(({ id }, index) =>
          audits.push({
            staffId,
            action: "student.import.create",
            entity: "student",
            entityId: id,
            after: forAudit(part[index]!.fields, places),
          }),
        );
      }
      for (const change of plan.update) {
        await tx
          .update(students)
          .set({ ...toColumns(change.fields), updatedAt: at })
          .where(eq(students.id, change.id));
        audits.push({
          staffId,
          action: "student.import.update",
          entity: "student",
          entityId: change.id,
          before: change.before,
          after: change.after,
        });
      }
      const newAddresses = plan.update
        .filter((change) => "email" in change.after)
        .map((change) => change.id);
      for (const part of chunks(newAddresses)) await cancelUnusedResetLinks(tx, part, at);
      const newNumbers = plan.update
        .filter((change) => "phone" in change.after)
        .map((change) => change.id);
      for (const part of chunks(newNumbers)) await cancelUnusedResetCodes(tx, part, at);
      // A file that changes nothing leaves the log as it was, as it leaves the students.
      const summary = {
        created: plan.create.length,
        updated: plan.update.length,
        unchanged: plan.unchanged,
      };
      if (audits.length > 0)
        await recordImportAudits(
          tx,
          { staffId, action: "student.import", entity: "student_import", after: summary },
          audits,
          at,
        );
    });
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new ApiError(
        409,
        "Another change to these students was saved while the file was being imported. Nothing was written; import the file again.",
      );
    }
    throw error;
  }
}
