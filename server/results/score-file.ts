import { inArray, sql } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { students } from "../db/schema.ts";
import { ApiError } from "../http/errors.ts";
import { parseCsv, toCsv, type RowRefusal } from "../csv/csv-file.ts";
import { importReport } from "../csv/import-report.ts";
import { SCORE_FILE_COLUMNS } from "../../common/results/course-lecturers.ts";
import { SPECIAL_MARKS, scoreProblem, type SpecialMark } from "../../common/results/grading.ts";
import type { ScoreEntry, ScoreSheet } from "../../common/results/score-sheets.ts";
import { schemeFor } from "./grading-scheme.ts";
import { readScoreSheet, saveScores } from "./score-sheet.ts";

const NOT_OPEN =
  "This result has been submitted to the head of department: it can no longer be changed here.";

/** Matric numbers as people type them: spaces around and letter case do not matter. */
const matricKey = (matric: string) => matric.trim().toUpperCase();

/** A mark cell: empty is "not entered"; otherwise a whole number, or null for a refusal. */
function readMark(cell: string): { ok: true; value: number | null } | { ok: false } {
  if (cell === "") return { ok: true, value: null };
  if (!/^\d+$/.test(cell)) return { ok: false };
  return { ok: true, value: Number(cell) };
}

/**
 * The sheet as a file to fill in: every student on the roster with a matric number, with what is
 * saved already (a special mark in the exam column), so a lecturer can download, edit, upload.
 */
export async function scoreFile(db: Database, offeringId: number) {
  const sheet = await readScoreSheet(db, offeringId, () => false);
  const rows = sheet.rows
    .filter((row) => row.matric_no !== null)
    .map((row) => [row.matric_no, row.ca, row.special ?? row.exam]);
  const name = `${sheet.offering.course_code}-${sheet.offering.session}-semester-${sheet.offering.semester}`;
  return {
    text: toCsv(SCORE_FILE_COLUMNS, rows),
    fileName: `${name.replace(/[^A-Za-z0-9-]+/g, "-")}-scores.csv`,
  };
}

type Entry = ScoreEntry & { row: number };

/**
 * A lecturer's score file (`matric_no,ca,exam`), checked and, unless it is a dry run or any row is
 * refused, saved in one go through the score sheet's own save (decision 175: all or nothing,
 * audited). Each row must name a student on the course's roster once, with marks the session's
 * scheme allows; rows of the roster the file leaves out are not changed.
 */
export async function importScores(
  db: Database,
  staffId: number,
  offeringId: number,
  text: string,
  dryRun: boolean,
  now: Date,
) {
  const sheet: ScoreSheet = await readScoreSheet(db, offeringId, () => false);
  if (sheet.offering.status !== "open") throw new ApiError(409, NOT_OPEN);
  const parsed = parseCsv(text, SCORE_FILE_COLUMNS);
  const scheme = await schemeFor(db, sheet.offering.session);
  const onRoster = new Map(
    sheet.rows.flatMap((row) => (row.matric_no ? [[matricKey(row.matric_no), row] as const] : [])),
  );
  const strangers = parsed
    .map(({ values }) => matricKey(values.matric_no))
    .filter((matric) => matric !== "" && !onRoster.has(matric));
  const known = new Set(
    strangers.length
      ? (
          await db
            .select({ matric: students.matricNo })
            .from(students)
            .where(inArray(sql`upper(${students.matricNo})`, [...new Set(strangers)]))
        ).map((row) => matricKey(row.matric!))
      : [],
  );

  const rejected: RowRefusal[] = [];
  const entries: Entry[] = [];
  const firstRow = new Map<string, number>();
  for (const { row, values } of parsed) {
    const refuse = (field: string, message: string) =>
      rejected.push({ row, field, message, value: values[field as keyof typeof values] });
    const matric = matricKey(values.matric_no);
    const student = onRoster.get(matric);
    const before = rejected.length;
    if (matric === "") refuse("matric_no", "Enter the student's matric number.");
    else if (firstRow.has(matric))
      refuse("matric_no", `This matric number is already on row ${firstRow.get(matric)}.`);
    else if (!student)
      refuse(
        "matric_no",
        known.has(matric)
          ? "This student is not registered (and approved) for this course."
          : "No student has this matric number.",
      );
    if (matric !== "" && !firstRow.has(matric)) firstRow.set(matric, row);

    const ca = readMark(values.ca);
    const examCell = values.exam.toUpperCase();
    const special = (SPECIAL_MARKS as readonly string[]).includes(examCell)
      ? (examCell as SpecialMark)
      : null;
    const exam = special ? { ok: true as const, value: null } : readMark(values.exam);
    if (!ca.ok) refuse("ca", "CA must be a whole number.");
    if (!exam.ok) refuse("exam", "Exam must be a whole number, or ABS, I or S.");
    if (ca.ok && exam.ok) {
      const problem = scoreProblem(
        scheme,
        special ? { ca: ca.value, special } : { ca: ca.value ?? 0, exam: exam.value ?? 0 },
      );
      if (problem) refuse(problem.startsWith("CA") ? "ca" : "exam", problem);
    }
    if (rejected.length === before && student && ca.ok && exam.ok)
      entries.push({
        row,
        student_id: student.student_id,
        ca: ca.value,
        exam: exam.value,
        special,
      });
  }

  const saved = new Map(sheet.rows.map((row) => [row.student_id, row]));
  const isSaved = (row: ScoreSheet["rows"][number]) =>
    row.ca !== null || row.exam !== null || row.special !== null;
  const changed = entries.filter((entry) => {
    const was = saved.get(entry.student_id)!;
    return was.ca !== entry.ca || was.exam !== entry.exam || was.special !== entry.special;
  });
  const counts = {
    created: changed.filter((entry) => !isSaved(saved.get(entry.student_id)!)).length,
    updated: changed.filter((entry) => isSaved(saved.get(entry.student_id)!)).length,
    unchanged: entries.length - changed.length,
  };
  if (rejected.length && !dryRun)
    return importReport({ created: 0, updated: 0, unchanged: 0 }, rejected, dryRun);
  if (!dryRun && changed.length)
    await saveScores(
      db,
      staffId,
      offeringId,
      {
        scores: changed.map(({ student_id, ca, exam, special }) => ({
          student_id,
          ca,
          exam,
          special,
        })),
      },
      now,
    );
  return importReport(counts, rejected, dryRun);
}
