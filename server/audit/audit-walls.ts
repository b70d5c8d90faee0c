import { sql, type AnyColumn, type SQL } from "drizzle-orm";
import { auditLog } from "../db/schema.ts";
import type { StaffRole } from "../../common/staff/staff.ts";

/**
 * The kinds of record (audit_log.entity) each role reads through its own endpoints: the same
 * walls, kept in the log (issue 30 item 10, decision 160). A kind no list names is seen by the
 * administrator alone, with its values reduced to SHOWN_TO_ADMIN: add new kinds here.
 */
const STRUCTURE = [
  "faculty",
  "department",
  "programme",
  "course",
  "course_mapping",
  "structure_import",
  "study_mode",
  "entry_mode",
];
const FEES = ["fee", "fee_import"];
// Deadline reminders by SMS: the bursary schedules fee reminders, the registry registration ones.
const REMINDERS = ["sms_reminder"];
export const AUDIT_WALLS: Record<Exclude<StaffRole, "adviser">, readonly string[]> = {
  registry: [
    "student",
    "student_import",
    "academic_session",
    "course_registration",
    ...STRUCTURE,
    ...REMINDERS,
  ],
  bursar: [...FEES, "payment", "refund", ...REMINDERS],
  support: ["complaint"],
  // Structure, sessions and fees: the administrator reads those pages too.
  admin: [
    "staff",
    "announcement",
    "library_item",
    "academic_session",
    ...STRUCTURE,
    ...FEES,
    ...REMINDERS,
  ],
  // Results (issue 32). A lecturer's or head's wall would be their own courses, not a kind of
  // record: they read a course's history on its result page, and nothing here.
  lecturer: [],
  hod: [],
  exams: ["course_result", "result_publication", "grading_scheme", "transcript_request"],
};

/**
 * What the administrator sees of a row outside their walls ("who did what"): values that say
 * what happened to a record without its person's details or anyone's words. Complaint texts,
 * refund reasons, notes, names, phones, e-mail addresses and anything new stay out.
 */
export const SHOWN_TO_ADMIN = [
  "status",
  "level",
  "programme",
  "department",
  "entry_session",
  "entry_mode",
  "study_mode",
  "matric_no",
  "application_no",
  "amount_kobo",
  "outcome",
  "payment_option",
  "session",
  "semester",
  "courses",
  "units",
  "current",
  "is_current",
  "course_modifiable",
  "registration_opens_on",
  "registration_closes_on",
  "late_fees_from",
  "promoted",
  "graduating",
  "groups",
  "biodata_locked",
  "failed_sign_ins",
  "created",
  "updated",
  "unchanged",
  "stage",
] as const;

const quoted = (items: readonly string[]) =>
  sql.join(
    items.map((item) => sql`${item}`),
    sql`, `,
  );
const ofKinds = (kinds: readonly string[]) => sql`${auditLog.entity} in (${quoted(kinds)})`;

/**
 * The rows a staff member may read (`visible`) and those they read in full (`full`; the rest,
 * the administrator's "who did what", lose every value outside SHOWN_TO_ADMIN), as SQL over
 * audit_log: the walls hold in the query, so counts and pages never include a row behind them.
 */
export function auditWalls(member: { id: number; roles: readonly string[] }) {
  const parts: SQL[] = [
    // Everyone reads what happened to their own account: their sign-ins, refused codes, resets.
    sql`(${auditLog.entity} = 'staff' and ${auditLog.entityId} = ${String(member.id)})`,
  ];
  for (const role of member.roles as StaffRole[]) {
    if (role === "adviser") {
      // Their own approvals and returns, and anyone's on the students they advise now (a
      // registry reopening one, say): the students their registrations list shows them.
      parts.push(sql`(${auditLog.entity} = 'course_registration' and (${auditLog.staffId} = ${member.id} or split_part(${auditLog.entityId}, ':', 1) in (
        select s.id::text from students s join adviser_scopes a on a.department_id = s.department_id and a.level = s.level where a.staff_id = ${member.id})))`);
      continue;
    }
    if (!(role in AUDIT_WALLS)) continue;
    parts.push(ofKinds(AUDIT_WALLS[role]));
    // Late fees are set on a session, by the bursary, as part of the fees.
    if (role === "bursar") parts.push(sql`${auditLog.action} = 'session.late_fees'`);
  }
  const full = sql`(${sql.join(parts, sql` or `)})`;
  const visible = member.roles.includes("admin") ? sql`true` : full;
  return { visible, full, ...redacted(full) };
}

/** before/after as the reader may see them, and the names of the fields left out. */
function redacted(full: SQL) {
  const kept = sql`(${quoted(SHOWN_TO_ADMIN)})`;
  const values = (column: AnyColumn) => sql<Record<string, unknown> | null>`case
    when ${column} is null or ${full} then ${column}
    when jsonb_typeof(${column}) = 'object' then (select coalesce(jsonb_object_agg(key, value), '{}'::jsonb) from jsonb_each(${column}) where key in ${kept})
    end`;
  const keysOf = (column: AnyColumn) =>
    sql`jsonb_object_keys(case when jsonb_typeof(${column}) = 'object' then ${column} else '{}'::jsonb end)`;
  const hidden = sql<string[]>`case when ${full} then '{}'::text[] else array(
    select k from (select ${keysOf(auditLog.before)} as k union select ${keysOf(auditLog.after)}) as fields where k not in ${kept} order by k
  ) end`;
  return { before: values(auditLog.before), after: values(auditLog.after), hidden };
}
