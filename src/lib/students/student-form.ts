import type { StaffStudent } from "../../../common/students/registry.ts";

// An empty e-mail is sent as "", which the API stores as none (decision 156).
const TEXT_FIELDS = [
  "matric_no",
  "application_no",
  "surname",
  "othername",
  "phone",
  "email",
  "entry_session",
  "entry_mode",
  "study_mode",
] as const;
const NUMBER_FIELDS = ["programme_id", "department_id", "level"] as const;

/** The record form's fields, as the page shows them again after a refusal. */
export type StudentFormValues = Pick<
  StaffStudent,
  (typeof TEXT_FIELDS)[number] | (typeof NUMBER_FIELDS)[number]
>;

/**
 * Reads the registry's record form into the PATCH body. Every field is sent; the API saves and
 * audits only the ones that differ from the record. A blank number becomes 0, which the API
 * refuses with the field's own message.
 */
export function readStudentForm(form: FormData): StudentFormValues {
  const text = (name: string) => String(form.get(name) ?? "");
  return {
    ...(Object.fromEntries(TEXT_FIELDS.map((name) => [name, text(name)])) as Pick<
      StudentFormValues,
      (typeof TEXT_FIELDS)[number]
    >),
    ...(Object.fromEntries(NUMBER_FIELDS.map((name) => [name, Number(text(name)) || 0])) as Pick<
      StudentFormValues,
      (typeof NUMBER_FIELDS)[number]
    >),
  };
}

/** The lock form: "lock" with the reason the student will read, or "unlock". */
export function readLockForm(form: FormData) {
  const locked = form.get("action") === "lock";
  return locked ? { locked, reason: String(form.get("reason") ?? "") } : { locked };
}
