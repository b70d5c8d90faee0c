import { randomBytes } from "node:crypto";
import { and, asc, eq, isNull, like, sql } from "drizzle-orm";
import { hashPassword } from "../../server/auth/password.ts";
import type { Database } from "../../server/db/client.ts";
import { insertStudent } from "../../server/db/factories.ts";
import {
  academicSessions,
  courseMappings,
  departments,
  feeSchedule,
  programmes,
  students,
} from "../../server/db/schema.ts";
import type { StudentAccount } from "./journey.ts";

/** The one password every simulated student signs in with. */
export const LOAD_PASSWORD = "registration-week";

// Simulated students' phones start with this (a real prefix, so the sign-in form accepts them)
// and run on from the highest already taken, so a second run against one database finds free ones.
const PHONE_PREFIX = "0917";
const PHONE_DIGITS = 7;
// Years of study a registration week sees most; each gets the entry session it implies.
const LEVELS = [100, 200, 300];
const INSERTS_AT_ONCE = 20;

/**
 * Makes `count` student accounts through the seed's own `insertStudent`, in the database the
 * portal's demo seed filled (sessions, programmes, catalogue, fees). Students are spread over
 * every programme and level that has courses to register and fees to pay in the current session.
 */
export async function createStudentAccounts(
  db: Database,
  count: number,
  progress: (message: string) => void = () => {},
): Promise<StudentAccount[]> {
  const [current] = await db
    .select()
    .from(academicSessions)
    .where(eq(academicSessions.isCurrent, true));
  if (!current) throw new Error("The database has no current session: was the demo seed loaded?");
  const places = await placesToStudy(db, current.name);
  if (places.length === 0) {
    throw new Error(
      `No programme has both courses and fees at levels ${LEVELS.join(", ")} in ${current.name}.`,
    );
  }

  const [highest] = await db
    .select({ phone: sql<string | null>`max(${students.phone})` })
    .from(students)
    .where(like(students.phone, `${PHONE_PREFIX}%`));
  const firstNumber = highest?.phone ? Number(highest.phone.slice(PHONE_PREFIX.length)) + 1 : 1;
  if (firstNumber + count > 10 ** PHONE_DIGITS)
    throw new Error(`No room for ${count} more phones after ${highest?.phone}.`);

  // Hashing a password costs the same CPU and memory the portal spends on a sign-in (that is the
  // point of a password hash): 10,000 of them would take most of an hour here. Every simulated
  // student has the same password, so it is hashed once and that stored hash given to each
  // account; the portal still verifies it in full at each sign-in.
  const passwordHash = await hashPassword(LOAD_PASSWORD);
  const run = randomBytes(3).toString("hex");
  const accounts: StudentAccount[] = [];
  for (let start = 0; start < count; start += INSERTS_AT_ONCE) {
    const batch = Array.from(
      { length: Math.min(INSERTS_AT_ONCE, count - start) },
      async (_, offset) => {
        const index = start + offset;
        const place = places[index % places.length]!;
        const phone = `${PHONE_PREFIX}${String(firstNumber + index).padStart(PHONE_DIGITS, "0")}`;
        const othername = `Load ${run} ${index + 1}`;
        const student = await insertStudent(db, {
          phone,
          email: `load-${run}-${index + 1}@example.com`,
          surname: "Student",
          othername,
          applicationNo: `APP/LOAD/${run}/${index + 1}`,
          departmentId: place.departmentId,
          programmeId: place.programmeId,
          level: place.level,
          entrySession: entrySession(current.name, place.level),
          passwordHash,
        });
        return {
          id: student.id,
          phone,
          password: LOAD_PASSWORD,
          othername,
          level: place.level,
          session: current.name,
          // Most pay the whole fee at once; one in four pays the first installment.
          paymentOption: index % 4 === 3 ? "part" : "full",
        } satisfies StudentAccount;
      },
    );
    for (const account of await Promise.all(batch)) accounts.push(account);
    if ((start / INSERTS_AT_ONCE) % 50 === 49)
      progress(`  ${accounts.length} of ${count} accounts made`);
  }
  return accounts;
}

/** Programme, a department of its school, and level: where a student can both pay and register. */
export async function placesToStudy(db: Database, session: string) {
  const [programmeRows, departmentRows, mapped, fees] = await Promise.all([
    db.select().from(programmes).orderBy(asc(programmes.id)),
    db.select().from(departments).orderBy(asc(departments.id)),
    db
      .selectDistinct({ programmeId: courseMappings.programmeId, level: courseMappings.level })
      .from(courseMappings),
    db
      .select({ level: feeSchedule.level, option: feeSchedule.paymentOption })
      .from(feeSchedule)
      .where(
        and(
          eq(feeSchedule.session, session),
          isNull(feeSchedule.replacedAt),
          isNull(feeSchedule.programmeId),
          isNull(feeSchedule.studyMode),
        ),
      ),
  ]);
  const payable = (level: number) =>
    ["full", "part"].every((option) =>
      fees.some((fee) => fee.level === level && fee.option === option),
    );
  return programmeRows.flatMap((programme) => {
    const department = departmentRows.find((row) => row.facultyId === programme.facultyId);
    if (!department) return [];
    return LEVELS.filter(
      (level) =>
        level <= programme.finalLevel &&
        payable(level) &&
        mapped.some((row) => row.programmeId === programme.id && row.level === level),
    ).map((level) => ({ programmeId: programme.id, departmentId: department.id, level }));
  });
}

/** "2024/2025" at 200 level → "2023/2024": the session a student at that level entered in. */
export function entrySession(current: string, level: number): string {
  const startYear = Number(current.slice(0, 4)) - (level / 100 - 1);
  return `${startYear}/${startYear + 1}`;
}
