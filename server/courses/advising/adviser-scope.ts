import { and, eq, sql, type SQL } from "drizzle-orm";
import type { Database, Transaction } from "../../db/client.ts";
import { adviserScopes, departments, programmes, students } from "../../db/schema.ts";
import { ApiError } from "../../http/errors.ts";
import type { SignedInStaff } from "../../staff/staff-sessions.ts";

const OUTSIDE_SCOPE =
  "You do not advise this student's department and level. Ask the registry to add it to your account if you should.";

/** The registry reads every department's registrations; an adviser reads and acts within scope. */
export const readsEveryDepartment = (member: SignedInStaff) => member.roles.includes("registry");

/** SQL true when `member` advises the student row in the query (department and current level). */
export function advisedBy(member: SignedInStaff): SQL {
  return sql`exists (select 1 from ${adviserScopes} where ${adviserScopes.staffId} = ${member.id} and ${adviserScopes.departmentId} = ${students.departmentId} and ${adviserScopes.level} = ${students.level})`;
}

/** The student with department and programme names, or 404. Check the scope first: an adviser learns nothing of students outside it. */
export async function findAdvisee(db: Database | Transaction, studentId: number) {
  const [row] = await db
    .select({
      id: students.id,
      surname: students.surname,
      othername: students.othername,
      matricNo: students.matricNo,
      level: students.level,
      programmeId: students.programmeId,
      department: departments.name,
      programme: programmes.name,
    })
    .from(students)
    .innerJoin(departments, eq(departments.id, students.departmentId))
    .innerJoin(programmes, eq(programmes.id, students.programmeId))
    .where(eq(students.id, studentId));
  if (!row) throw new ApiError(404, "There is no student with that id.");
  return row;
}

/** Whether `member` advises the student: a scope row for the student's department and level. */
export async function advises(
  db: Database | Transaction,
  member: SignedInStaff,
  studentId: number,
) {
  const [row] = await db
    .select({ id: students.id })
    .from(students)
    .where(and(eq(students.id, studentId), advisedBy(member)));
  return Boolean(row);
}

/** Refuses (403) an adviser acting on a student outside their departments and levels. */
export async function assertAdvises(
  db: Database | Transaction,
  member: SignedInStaff,
  studentId: number,
) {
  if (!member.roles.includes("adviser") || !(await advises(db, member, studentId))) {
    throw new ApiError(403, OUTSIDE_SCOPE);
  }
}

/** Refuses (403) reading a student's registration that is neither advised nor open to the registry. */
export async function assertMayRead(
  db: Database | Transaction,
  member: SignedInStaff,
  studentId: number,
) {
  if (readsEveryDepartment(member)) return;
  await assertAdvises(db, member, studentId);
}
