import { eq, sql } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { preparedQuery } from "../db/prepared.ts";
import { academicSessions, students } from "../db/schema.ts";
import { paymentCompleteFrom } from "../../common/payments/fee-status.ts";
import type { StudentRecord } from "../../common/students/student-record.ts";

type StudentRow = typeof students.$inferSelect;

/** The API path a student's passport photo is served from (signed-in users only). */
export const photoUrl = (key: string | null) => (key ? `/api/student/photo/${key}` : null);

/** The session the registry marked current: the one fees and registration mean unless told otherwise. */
export async function currentSessionName(db: Database): Promise<string | null> {
  const [row] = await db
    .select({ name: academicSessions.name })
    .from(academicSessions)
    .where(eq(academicSessions.isCurrent, true))
    .limit(1);
  return row?.name ?? null;
}

/** Where a student belongs and what they have paid in the current session. */
export type StudentPlacement = {
  department: string | null;
  faculty: string | null;
  programme: string | null;
  programmeFaculty: string | null;
  paidOptions: string[];
  /** The session the registry marked current, which `paidOptions` (at the student's level) are of. */
  currentSession: string | null;
};

/**
 * The placement as columns beside any query that reads `students` (scalar subqueries, no joins
 * to thread through): the session lookup reads it with the student, so a signed-in page's record
 * costs no query of its own (decision 112).
 */
export function placementColumns() {
  // Written out, not built from the schema's columns: in a query on one table the ORM leaves
  // column names unqualified, and inside these subqueries "id" would be ambiguous.
  const current = sql.raw(`(select s.name from academic_sessions s where s.is_current limit 1)`);
  return {
    department: sql<
      string | null
    >`(select d.name from departments d where d.id = students.department_id)`,
    faculty: sql<
      string | null
    >`(select f.name from faculties f join departments d on d.faculty_id = f.id where d.id = students.department_id)`,
    programme: sql<
      string | null
    >`(select p.name from programmes p where p.id = students.programme_id)`,
    programmeFaculty: sql<
      string | null
    >`(select f.name from faculties f join programmes p on p.faculty_id = f.id where p.id = students.programme_id)`,
    // At the student's own level: a fee of another level paid in the session does not settle it.
    paidOptions: sql<
      string[]
    >`array(select pay.payment_option from payments pay where pay.student_id = students.id and pay.status = 'success' and pay.session = ${current} and pay.level = students.level)`,
    currentSession: sql<string | null>`${current}`,
  };
}

const studentPlacementQuery = preparedQuery((db) =>
  db
    .select(placementColumns())
    .from(students)
    .where(eq(students.id, sql.placeholder("studentId")))
    .prepare("student_placement"),
);

/**
 * The record the API answers for a student. A signed-in student carries the placement read with
 * their session (as fresh as the session cache's few seconds); a row without it (just signed in,
 * just changed) has it read now.
 */
export async function loadStudentRecord(
  db: Database,
  student: StudentRow & { placement?: StudentPlacement },
): Promise<StudentRecord> {
  const placement =
    student.placement ?? (await studentPlacementQuery(db).execute({ studentId: student.id }))[0];
  const paymentComplete = placement?.currentSession
    ? paymentCompleteFrom(placement.paidOptions)
    : null;
  return {
    id: student.id,
    title: student.title,
    surname: student.surname,
    othername: student.othername,
    username: student.username,
    phone: student.phone,
    // "" for a student with no e-mail address (decision 156): the biodata page shows it empty.
    email: student.email ?? "",
    photo: photoUrl(student.photo),
    matric_no: student.matricNo,
    application_no: student.applicationNo,
    department: placement?.department ?? "",
    course_of_study: placement?.department ?? "",
    faculty: placement?.faculty ?? "",
    programme: placement?.programme ?? "",
    entry_session: student.entrySession,
    entry_mode: student.entryMode,
    study_mode: student.studyMode,
    level: student.level,
    stage: student.stage,
    marital_status: student.maritalStatus,
    religion: student.religion,
    dob: student.dob,
    mob: student.mob,
    yob: student.yob,
    country_origin: student.countryOrigin,
    state_origin: student.stateOrigin,
    lga_origin: student.lgaOrigin,
    payment_complete: paymentComplete,
    biodata_locked: student.biodataLocked,
    biodata_lock_reason: student.biodataLockReason,
    admin_response: [
      {
        approved_program: {
          name: placement?.programme ?? "",
          faculty_name: placement?.programmeFaculty ?? "",
        },
      },
    ],
    updated_at: student.updatedAt.toISOString(),
  };
}
