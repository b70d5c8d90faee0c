import { parse } from "csv-parse/sync";
import { ApiError } from "../http/errors.ts";
import { CSV_MAX_BYTES, CSV_TOO_LARGE } from "../../common/http/body-limits.ts";

/** Rows one import accepts: a whole college's intake, few enough to check in one go. */
export const CSV_MAX_ROWS = 5_000;

/** One refused row: `row` counts lines as a spreadsheet shows them (the header is row 1). */
export type RowRefusal = {
  row: number;
  field: string;
  message: string;
  /** The cell as the file has it, shown beside the problem. */ value?: string;
};

export type CsvRow<Column extends string> = { row: number; values: Record<Column, string> };

const refuse = (message: string): never => {
  throw new ApiError(400, message, { fields: { file: message } });
};

/**
 * The file's text: UTF-8 with or without a byte-order mark. Anything else (a spreadsheet saved
 * as Windows-1252 or UTF-16, a binary file such as .xlsx) is refused instead of being read as
 * mojibake, with a message that says how to save it properly.
 */
export function decodeCsv(bytes: Uint8Array): string {
  if (bytes.byteLength === 0) refuse("The file is empty. Choose the CSV file with your rows.");
  if (bytes.byteLength > CSV_MAX_BYTES) {
    refuse(CSV_TOO_LARGE);
  }
  const utf16 =
    (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff);
  if (utf16 || bytes.includes(0)) {
    refuse(
      "This is not a CSV text file (it looks like a spreadsheet or another binary file). In the spreadsheet, use Save As → CSV UTF-8.",
    );
  }
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return refuse(
      "The file is not in UTF-8, so names with accents would be garbled. In the spreadsheet, use Save As → CSV UTF-8 and upload that file.",
    );
  }
}

/**
 * Parses CSV text whose first line must be exactly `columns` (any order is refused, so a
 * shifted column can never put surnames into phone numbers). Cells are trimmed; CRLF and LF
 * both work. Empty lines, and lines of bare commas that a spreadsheet leaves where cells were
 * cleared, are not rows; they still count in the numbering, so a row's number is the one the
 * officer sees in the spreadsheet.
 */
export function parseCsv<Column extends string>(
  text: string,
  columns: readonly Column[],
): CsvRow<Column>[] {
  let records: string[][];
  try {
    // Empty lines are kept so that a record's index is its spreadsheet row (a quoted cell spanning
    // lines is still one row there, which line numbers from the parser would not give).
    records = parse(text, {
      bom: true,
      skip_empty_lines: false,
      relax_column_count: true,
      trim: true,
    });
  } catch (error) {
    const line = (error as { lines?: number }).lines;
    return refuse(
      `The file is not valid CSV${line ? ` near line ${line}` : ""}: check for a stray quote mark (").`,
    );
  }
  const numbered = records
    .map((cells, index) => ({ row: index + 1, cells }))
    .filter(({ cells }) => cells.some((cell) => cell !== ""));
  const [header, ...rows] = numbered;
  const expected = columns.join(",");
  if (!header || header.cells.map((cell) => cell.toLowerCase()).join(",") !== expected) {
    refuse(
      `The first line must be exactly: ${expected}${header ? headerProblems(header.cells, columns) : ""}`,
    );
  }
  if (rows.length === 0) {
    refuse(
      records.length > header!.row
        ? "The file has a header but no rows: the lines below it are empty (blank, or only commas)."
        : "The file has a header but no rows.",
    );
  }
  if (rows.length > CSV_MAX_ROWS)
    refuse(
      `The file has ${rows.length} rows; at most ${CSV_MAX_ROWS} can be imported at once. Split it.`,
    );
  return rows.map(({ row, cells }) => {
    if (cells.length > columns.length) {
      refuse(
        `Row ${row} has more cells than the header: check for a comma inside a value that is not in quotes.`,
      );
    }
    const values = Object.fromEntries(
      columns.map((column, at) => [column, cells[at] ?? ""]),
    ) as Record<Column, string>;
    return { row, values };
  });
}

/** Edits (insert, delete, change a character) between two short words. */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, at) => at);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      current[j] = Math.min(
        previous[j]! + 1,
        current[j - 1]! + 1,
        previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    previous = current;
  }
  return previous[b.length]!;
}

/**
 * What is wrong with a header, in words an officer can act on: columns missing, columns not
 * expected, a heading that is close to a missing one ("matric" for "matric_no", "E-mail" for
 * "email"), or the right columns in another order.
 */
export function headerProblems(cells: string[], columns: readonly string[]): string {
  const tidy = (cell: string) => cell.trim().toLowerCase();
  const squeeze = (cell: string) => tidy(cell).replace(/[^a-z0-9]/g, "");
  const given = cells.map(tidy).filter((cell) => cell !== "");
  let missing = columns.filter((column) => !given.includes(column));
  const extra = given.filter((cell) => !(columns as readonly string[]).includes(cell));
  const misspelt: string[] = [];
  const unexplained: string[] = [];
  for (const cell of extra) {
    const close = missing
      .map((column) => ({
        column,
        apart: squeeze(cell) === squeeze(column) ? 0 : distance(squeeze(cell), squeeze(column)),
      }))
      .filter(
        ({ column, apart }) =>
          apart <= Math.max(2, Math.floor(column.length / 3)) ||
          column.startsWith(squeeze(cell)) ||
          squeeze(column).startsWith(squeeze(cell)),
      )
      .sort((a, b) => a.apart - b.apart)[0];
    if (close) {
      misspelt.push(`"${cell}" should be "${close.column}"`);
      missing = missing.filter((column) => column !== close.column);
    } else unexplained.push(cell);
  }
  const parts = [
    misspelt.length ? `Misspelt: ${misspelt.join("; ")}.` : "",
    missing.length ? `Missing: ${missing.join(", ")}.` : "",
    unexplained.length ? `Not expected: ${unexplained.join(", ")}.` : "",
  ].filter(Boolean);
  if (parts.length === 0) {
    const repeated = given.filter((cell, at) => given.indexOf(cell) !== at);
    parts.push(
      repeated.length
        ? `Written twice: ${[...new Set(repeated)].join(", ")}.`
        : "The columns are all there, but in another order.",
    );
  }
  return ` (${parts.join(" ")})`;
}

// A cell a spreadsheet would run as a formula (CSV injection): =, +, -, @, tab or carriage return first.
const FORMULA_START = /^[=+\-@\t\r]/;

/** One CSV cell for export: quoted, and a would-be formula prefixed with ' so it shows as text. */
export function csvCell(value: string | number | null | undefined): string {
  const text = value === null || value === undefined ? "" : String(value);
  const safe = FORMULA_START.test(text) ? `'${text}` : text;
  return `"${safe.replaceAll('"', '""')}"`;
}

/** A whole CSV file (CRLF, as spreadsheets expect) with every cell made safe by csvCell. */
export function toCsv(
  columns: readonly string[],
  rows: (string | number | null | undefined)[][],
): string {
  return [columns, ...rows].map((cells) => cells.map(csvCell).join(",")).join("\r\n") + "\r\n";
}
