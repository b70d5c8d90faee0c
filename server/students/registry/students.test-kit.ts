import { readOutbox } from "../../mail/outbox.ts";
import type { ApiHarness } from "../../testing/api-harness.test-kit.ts";
import {
  STUDENT_IMPORT_COLUMNS,
  type StudentImportColumn,
} from "../../../common/students/registry.ts";

export const IMPORT_HEADER = STUDENT_IMPORT_COLUMNS.join(",");

const NAMES = [
  "Adaeze",
  "Bukola",
  "Chinedu",
  "Danjuma",
  "Efosa",
  "Funmilayo",
  "Garba",
  "Halima",
  "Ifeanyi",
  "Jumoke",
];

/** A valid import row for student `n` (in the harness's Biology / NCE Biology/Chemistry), with changes. */
export function studentRow(n: number, changes: Partial<Record<StudentImportColumn, string>> = {}) {
  const number = String(n).padStart(4, "0");
  const row: Record<StudentImportColumn, string> = {
    matric_no: `COE/2024/BIO/${number}`,
    application_no: `APP/2024/${number}`,
    surname: "Okafor",
    othername: `${NAMES[n % NAMES.length]} ${NAMES[Math.floor(n / NAMES.length) % NAMES.length]}`,
    phone: `0813${String(1_000_000 + n)}`,
    email: `student.${n}@students.example`,
    programme: "NCE Biology/Chemistry",
    department: "Biology",
    level: "100",
    entry_session: "2024/2025",
    entry_mode: "UTME",
    study_mode: "Full Time",
    ...changes,
  };
  return STUDENT_IMPORT_COLUMNS.map((column) =>
    /[",]/.test(row[column]) ? `"${row[column].replaceAll('"', '""')}"` : row[column],
  ).join(",");
}

/** A whole file: the header and the given rows, LF line ends unless told. */
export const importFile = (rows: string[], newline = "\n") =>
  [IMPORT_HEADER, ...rows].join(newline) + newline;

/** Posts a file to the import endpoint as a browser form would. */
export function postImport(
  api: ApiHarness,
  token: string | undefined,
  file: string | Uint8Array<ArrayBuffer>,
  options: { dryRun?: boolean; name?: string } = {},
) {
  const form = new FormData();
  form.set("file", new File([file], options.name ?? "students.csv", { type: "text/csv" }));
  if (options.dryRun) form.set("dry_run", "true");
  return api.request("/staff/students/import", { method: "POST", body: form, token });
}

/**
 * The newest student password link mailed to `email`: uidb64 and token, from the harness's outbox
 * once the queue has sent what is due.
 */
export async function latestStudentLink(api: ApiHarness, email: string) {
  await api.deliverMail();
  const mail = (await readOutbox(api.outboxDir)).find((message) => message.to === email);
  const match = /\/password\/reset\/([A-Za-z0-9_-]+)\/([A-Za-z0-9_-]{43})/.exec(mail?.text ?? "");
  return match ? { subject: mail!.subject, uidb64: match[1]!, token: match[2]! } : null;
}
