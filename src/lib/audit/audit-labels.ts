import { z } from "zod";
import { formatHistoryDate } from "../../../common/format/dates.ts";
import { formatNaira, koboToNaira } from "../../../common/format/money.ts";

/** One page of the audit log as GET /staff/audit answers it. */
export const AuditPage = z.object({
  data: z.array(
    z.object({
      id: z.number(),
      at: z.string(),
      staff_id: z.number().nullable(),
      /** Who did it, by name: "Ngozi Eze (registry@…)", a student by name and matric number, or Paystack. */
      staff_name: z.string(),
      action: z.string(),
      entity: z.string(),
      entity_id: z.string().nullable(),
      /** The record by name: "Student Amaka Obi (BIO/2023/001)", "Complaint CMP-7K3QX9 from …". */
      record: z.string(),
      before: z.unknown(),
      after: z.unknown(),
      /** Fields the reader's role may not see (the administrator's view of others' records). */
      hidden: z.array(z.string()),
      /** The import summary row this row belongs to. */
      part_of: z.number().nullable(),
      /** How many rows belong to this row, when it is an import's summary. */
      parts: z.number(),
    }),
  ),
  total: z.number(),
  page: z.number(),
  page_size: z.number(),
});
export type AuditPage = z.infer<typeof AuditPage>;
export type AuditRow = AuditPage["data"][number];

/** What each action is called on the page; the log keeps the short code. */
export const ACTION_LABELS: Record<string, string> = {
  "student.update": "Student record corrected",
  "student.import": "Students imported from a file",
  "student.import.create": "Student added by an import",
  "student.import.update": "Student changed by an import",
  "student.biodata_lock": "Biodata locked",
  "student.biodata_unlock": "Biodata unlocked",
  "student.activation_link": "Activation link sent",
  "student.sign_in_lockout_reset": "Failed sign-ins forgotten",
  "student.activated": "Student chose a first password (activation link)",
  "student.password_reset": "Student chose a new password (reset link)",
  "registration.approve": "Course registration approved",
  "registration.return": "Course registration returned",
  "registration.reopen": "Approved course registration reopened",
  "faculties.import": "Faculties imported from a file",
  "departments.import": "Departments imported from a file",
  "programmes.import": "Programmes imported from a file",
  "courses.import": "Courses imported from a file",
  "course-mappings.import": "Course mappings imported from a file",
  "session.create": "Session created",
  "session.make_current": "Current session changed",
  "session.registration": "Registration window changed",
  "session.promote": "Students promoted",
  "session.promotion_undo": "Promotion undone",
  "session.late_fees": "Late fees date set",
  "fee.create": "Fee added",
  "fee.update": "Fee amount changed",
  "fee.replace": "Fee replaced",
  "fee.import": "Fee schedule imported from a file",
  "payment.verify_credit": "Payment checked with Paystack",
  "payment.uncredit": "Payment no longer counted",
  "payment.refund": "Refund asked of Paystack",
  "payment.refund_request": "Refund asked, waiting for a second approver",
  "payment.refund_approve": "Refund approved by a second approver",
  "payment.refund_decline": "Refund declined",
  "payment.refund_paid_outside": "Refund paid by bank transfer outside the portal",
  "payment.refund_not_paid_outside":
    "Refund outside the portal not paid, payment back to the queue",
  "department.head": "Head of department named",
  "course_result.lecturers": "Course lecturers assigned",
  "course_result.scores": "Scores entered",
  "course_result.submit": "Result submitted to the head of department",
  "course_result.approve": "Result approved by the head of department",
  "course_result.return": "Result returned to its lecturers",
  "result_publication.publish": "Results published",
  "sms_reminder.schedule": "Deadline reminder by SMS scheduled",
  "sms_reminder.cancel": "Deadline reminder by SMS cancelled",
  "grading_scheme.set": "Grading scheme set",
  "transcript.release": "Transcript released",
  "transcript.cancel": "Transcript request cancelled by the student",
  "course_result.amendment_proposed": "Score amendment proposed",
  "course_result.amendment_endorsed": "Score amendment endorsed by the head of department",
  "course_result.amendment_applied": "Score amendment applied",
  "course_result.amendment_declined": "Score amendment declined",
  "complaint.reply": "Complaint answered",
  "complaint.close": "Complaint closed",
  "complaint.reopen": "Complaint reopened",
  "staff.create": "Staff account created",
  "staff.update": "Staff account changed",
  "staff.password_link": "Password link sent",
  "staff.password_set": "Password chosen from a link",
  "staff.sign_in": "Signed in with the password",
  "staff.sign_in_wait_cleared": "Sign-in wait cleared",
  "staff.second_factor_refused": "Authenticator code refused",
  "staff.recovery_code_used": "Recovery code used",
  "staff.totp_enrolled": "Authenticator app set up",
  "staff.totp_reset": "Authenticator app reset",
  "announcement.create": "Announcement added",
  "announcement.update": "Announcement changed",
  "announcement.delete": "Announcement deleted",
  "library.create": "Library item added",
  "library.update": "Library item changed",
};

const KINDS: Record<string, string> = {
  faculty: "Faculty",
  department: "Department",
  programme: "Programme",
  course: "Course",
  course_mapping: "Course mapping",
  study_mode: "Study mode",
  entry_mode: "Entry mode",
};
const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const words = (code: string) => capital(code.replaceAll(/[._-]+/g, " ").trim());

/** "Student record corrected"; a structure change reads "Faculty added"; an action this list lacks is spelled out. */
export function actionLabel(action: string) {
  const known = ACTION_LABELS[action];
  if (known) return known;
  const [kind, verb] = action.split(".");
  if (kind && KINDS[kind] && (verb === "create" || verb === "update"))
    return `${KINDS[kind]} ${verb === "create" ? "added" : "changed"}`;
  return words(action);
}

/** The names people know the fields by. */
export const FIELD_LABELS: Record<string, string> = {
  matric_no: "Matric number",
  application_no: "Application number",
  surname: "Surname",
  othername: "Other names",
  phone: "Phone",
  email: "E-mail",
  programme: "Programme",
  department: "Department",
  faculty_id: "Faculty",
  level: "Level",
  entry_session: "Entry session",
  entry_mode: "Entry mode",
  study_mode: "Study mode",
  status: "Status",
  amount_kobo: "Amount",
  reason: "Reason",
  reply: "Reply",
  note: "Note",
  courses: "Courses",
  units: "Units",
  biodata_locked: "Biodata locked",
  biodata_lock_reason: "Reason for the lock",
  name: "Name",
  roles: "Roles",
  active: "Can sign in",
  advises: "Advises",
  is_current: "Current session",
  current: "Current session",
  course_modifiable: "Registration open",
  registration_opens_on: "Registration opens on",
  registration_closes_on: "Registration closes on",
  late_fees_from: "Late fees from",
  promoted: "Students promoted",
  graduating: "Marked as graduating",
  promoted_ids: "Promoted students",
  graduating_ids: "Graduating students",
  failed_sign_ins: "Failed sign-ins",
  outcome: "Outcome",
  cause: "Cause",
  payment_option: "Payment",
  session: "Session",
  semester: "Semester",
  created: "Created",
  updated: "Changed",
  unchanged: "Unchanged",
  stage: "Next step",
  refused: "Why",
  recovery_codes_left: "Recovery codes left",
  body: "Text",
  show_from: "Shown from",
  show_until: "Shown until",
  description: "Description",
  url: "Address",
  hidden: "Hidden from students",
  code: "Code",
  title: "Title",
  unit: "Units",
  final_level: "Final level",
  id: "Number",
};

export const fieldLabel = (key: string) => FIELD_LABELS[key] ?? words(key);

const STAGES: Record<string, string> = {
  code: "the authenticator code",
  enrol: "set up an authenticator app",
  ready: "none: signed in",
};
const SEMESTERS: Record<string, string> = { "1": "First", "2": "Second" };

/** One value as a person reads it: naira for kobo, Yes/No, lists joined, long lists counted. */
export function formatValue(key: string, value: unknown): string {
  if (value === null || value === undefined || value === "") return "(none)";
  if (typeof value === "boolean") return value ? "Yes" : "No";
  if (typeof value === "number" && key.endsWith("_kobo")) return formatNaira(koboToNaira(value));
  if (key === "stage" && typeof value === "string") return STAGES[value] ?? value;
  if (key === "semester") return SEMESTERS[String(value)] ?? String(value);
  if (Array.isArray(value)) {
    if (key.endsWith("_ids")) return `${value.length} student${value.length === 1 ? "" : "s"}`;
    if (value.length > 12) return `${value.length} items`;
    return value.length === 0
      ? "(none)"
      : value
          .map((item) =>
            typeof item === "object" && item !== null ? describeObject(item) : String(item),
          )
          .join(", ");
  }
  if (typeof value === "object") return describeObject(value as Record<string, unknown>);
  return String(value);
}

function describeObject(value: object) {
  return Object.entries(value)
    .map(
      ([key, item]) =>
        `${fieldLabel(key)} ${typeof item === "object" && item !== null ? JSON.stringify(item) : formatValue(key, item)}`,
    )
    .join(", ");
}

const asRecord = (value: unknown): Record<string, unknown> =>
  value && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};

/** A row's before and after as a list of changed fields: "Level: 100 → 200"; a new record lists its values. */
export function changeList(row: Pick<AuditRow, "before" | "after">) {
  const before = asRecord(row.before);
  const after = asRecord(row.after);
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  return keys.map((key) => ({
    label: fieldLabel(key),
    before: key in before ? formatValue(key, before[key]) : null,
    after: key in after ? formatValue(key, after[key]) : null,
  }));
}

/** The time of a row as the college reads it: "05-09-2024, 2:07:09 pm", Lagos time. */
export const auditTime = (at: string) => formatHistoryDate(at);
