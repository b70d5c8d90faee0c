import type { CsvRow, RowRefusal } from "../../csv/csv-file.ts";
import {
  STUDENT_IMPORT_COLUMNS,
  StudentImportRow,
  type StudentImportColumn,
} from "../../../common/students/registry.ts";
import type { ModeDirectory } from "../../structure/modes.ts";
import type { Places } from "./places.ts";
import type { StudentFields } from "./student-fields.ts";

/** A row that passed every check of its own, ready to be compared with the database. */
export type CheckedRow = { row: number; fields: StudentFields };

const UNIQUE = ["matric_no", "application_no", "phone", "email"] as const;
export type UniqueField = (typeof UNIQUE)[number];

const LABEL: Record<UniqueField, string> = {
  matric_no: "matric number",
  application_no: "application number",
  phone: "phone number",
  email: "e-mail address",
};

/**
 * Checks each row on its own (formats, level, session, programme and department by name) and
 * against the rows above it (a matric number, application number, phone or e-mail used twice).
 */
export function checkRows(
  rows: CsvRow<StudentImportColumn>[],
  places: Places,
  modes: { study: ModeDirectory; entry: ModeDirectory },
) {
  const refusals: RowRefusal[] = [];
  const checked: CheckedRow[] = [];
  const firstRowWith = Object.fromEntries(
    UNIQUE.map((field) => [field, new Map<string, number>()]),
  ) as Record<UniqueField, Map<string, number>>;

  for (const { row, values } of rows) {
    // The cell as written goes beside the problem, so the officer sees what to correct.
    const refuse = (field: string, message: string) =>
      refusals.push({
        row,
        field,
        message,
        ...(field in values ? { value: values[field as StudentImportColumn] } : {}),
      });
    const parsed = StudentImportRow.safeParse(values);
    const seen = new Set<string>();
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = String(issue.path[0] ?? "row");
        if (!seen.has(field)) refuse(field, issue.message);
        seen.add(field);
      }
    }
    const programme = places.programmes.byName(values.programme);
    const department = places.departments.byName(values.department);
    if (values.programme.trim() && !programme)
      refuse("programme", places.programmes.unknown(values.programme));
    if (values.department.trim() && !department)
      refuse("department", places.departments.unknown(values.department));
    // Any spelling of a mode on the registry's list; the list's own is stored (decision 154).
    const studyMode = modes.study.find(values.study_mode);
    const entryMode = modes.entry.find(values.entry_mode);
    if (!seen.has("study_mode") && !studyMode)
      refuse("study_mode", modes.study.unknown(values.study_mode.trim()));
    if (!seen.has("entry_mode") && !entryMode)
      refuse("entry_mode", modes.entry.unknown(values.entry_mode.trim()));

    let repeated = false;
    for (const field of UNIQUE) {
      const value = parsed.success ? parsed.data[field] : undefined;
      if (value === undefined || value === null) continue;
      const earlier = firstRowWith[field].get(value);
      if (earlier === undefined) firstRowWith[field].set(value, row);
      else {
        refuse(field, `The same ${LABEL[field]} as row ${earlier}: each student needs their own.`);
        repeated = true;
      }
    }
    if (parsed.success && programme && department && studyMode && entryMode && !repeated) {
      const { programme: _programme, department: _department, ...rest } = parsed.data;
      checked.push({
        row,
        fields: {
          ...rest,
          study_mode: studyMode,
          entry_mode: entryMode,
          programme_id: programme.id,
          department_id: department.id,
        },
      });
    }
  }
  return { refusals, checked };
}

/** A student already in the database, as far as the uniqueness checks need. */
export type ExistingStudent = {
  id: number;
  matric_no: string | null;
  application_no: string;
  phone: string;
  email: string | null;
};

/**
 * Refuses a row whose application number, phone or e-mail already belongs to a student other
 * than the one its matric number names (that one is the student the row updates).
 */
export function checkAgainstExisting(checked: CheckedRow[], existing: ExistingStudent[]) {
  const refusals: RowRefusal[] = [];
  const owners = Object.fromEntries(
    UNIQUE.map((field) => [
      field,
      new Map(
        existing.map((student) => [
          field === "email" ? student.email?.toLowerCase() : student[field],
          student,
        ]),
      ),
    ]),
  ) as Record<UniqueField, Map<string | null | undefined, ExistingStudent>>;
  const accepted: (CheckedRow & { existingId: number | null })[] = [];
  for (const candidate of checked) {
    const matched = owners.matric_no.get(candidate.fields.matric_no);
    let clashes = false;
    for (const field of UNIQUE) {
      const value = candidate.fields[field];
      // Students with no e-mail address share none: empty is not an address.
      const owner = value === null ? undefined : owners[field].get(value);
      if (owner && owner.id !== matched?.id) {
        refusals.push({
          row: candidate.row,
          field,
          value: String(value),
          message: `This ${LABEL[field]} is already on the record of another student (${owner.matric_no ?? owner.application_no}).`,
        });
        clashes = true;
      }
    }
    if (!clashes) accepted.push({ ...candidate, existingId: matched?.id ?? null });
  }
  return { refusals, accepted };
}

/** Refusals in the order a person reads the file: by row, then by column. */
export function inFileOrder(refusals: RowRefusal[]) {
  const column = (field: string) => (STUDENT_IMPORT_COLUMNS as readonly string[]).indexOf(field);
  return [...refusals].sort((a, b) => a.row - b.row || column(a.field) - column(b.field));
}
