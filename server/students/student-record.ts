import { and, eq, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Database } from "../db/client.ts";
import { preparedQuery } from "../db/prepared.ts";
import {
  academicSessions,
  departments,
  faculties,
  payments,
  programmes,
  students,
} from "../db/schema.ts";
import { paymentCompleteFrom } from "../../src/lib/payments/fee-status.ts";
import type { StudentRecord } from "../../src/lib/students/student-record.ts";

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

// Every signed-in page loads the record first, so it is one prepared query: where the student
// belongs, the current session, and what they have paid in it.
const studentPlacementQuery = preparedQuery((db) => {
  const programmeFaculty = alias(faculties, "programme_faculty");
  const current = db
    .select({ name: academicSessions.name })
    .from(academicSessions)
    .where(eq(academicSessions.isCurrent, true))
    .limit(1);
  const paidThisSession = db
    .select({ option: payments.paymentOption })
    .from(payments)
    .where(
      and(
        eq(payments.studentId, sql.placeholder("studentId")),
        eq(payments.status, "success"),
        sql`${payments.session} = (${current})`,
      ),
    );
  return db
    .select({
      department: departments.name,
      faculty: faculties.name,
      programme: programmes.name,
      programmeFaculty: programmeFaculty.name,
      session: sql<string | null>`(${current})`,
      paidOptions: sql<string[]>`array(${paidThisSession})`,
    })
    .from(students)
    .leftJoin(departments, eq(departments.id, students.departmentId))
    .leftJoin(faculties, eq(faculties.id, departments.facultyId))
    .leftJoin(programmes, eq(programmes.id, students.programmeId))
    .leftJoin(programmeFaculty, eq(programmeFaculty.id, programmes.facultyId))
    .where(eq(students.id, sql.placeholder("studentId")))
    .prepare("student_placement");
});

export async function loadStudentRecord(db: Database, student: StudentRow): Promise<StudentRecord> {
  const [placement] = await studentPlacementQuery(db).execute({ studentId: student.id });
  const paymentComplete = placement?.session ? paymentCompleteFrom(placement.paidOptions) : null;
  return {
    id: student.id,
    title: student.title,
    surname: student.surname,
    othername: student.othername,
    username: student.username,
    phone: student.phone,
    email: student.email,
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
