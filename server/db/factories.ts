import { randomInt, randomUUID } from "node:crypto";
import type { Database } from "./client.ts";
import {
  academicSessions,
  announcements,
  departments,
  faculties,
  programmes,
  sessionPromotions,
  students,
} from "./schema.ts";
import { defaultFinalLevel } from "../../common/structure/structure-cells.ts";
import { hashPassword, type Argon2Cost } from "../auth/password.ts";

/** The six sessions the portal offers (spec section 9); the newest is current and open. */
export const SESSION_NAMES = [
  "2019/2020",
  "2020/2021",
  "2021/2022",
  "2022/2023",
  "2023/2024",
  "2024/2025",
] as const;

const CURRENT_SESSION = "2024/2025";

/**
 * The sessions, with the current one open for registration (no dates) and recorded as promoted:
 * the students loaded with it are already at their levels for it. Late fees apply from 1 March of
 * each session's second year (decision 095).
 */
export async function insertSessions(
  db: Database,
  modifiable: readonly string[] = [CURRENT_SESSION],
) {
  const rows = await db
    .insert(academicSessions)
    .values(
      SESSION_NAMES.map((name) => ({
        name,
        courseModifiable: modifiable.includes(name),
        isCurrent: name === CURRENT_SESSION,
        lateFeesFrom: `${name.slice(5)}-03-01`,
      })),
    )
    .returning();
  const current = rows.find((row) => row.isCurrent)!;
  await db
    .insert(sessionPromotions)
    .values({ sessionId: current.id, at: new Date(), promoted: 0, graduating: 0 });
  return rows;
}

/** A school with its departments and programmes, as the seed and tests both need them. */
export async function insertSchool(
  db: Database,
  school: { name: string; departments: string[]; programmes: string[] },
) {
  const [faculty] = await db.insert(faculties).values({ name: school.name }).returning();
  const facultyId = faculty!.id;
  const departmentRows = await db
    .insert(departments)
    .values(school.departments.map((name) => ({ name, facultyId })))
    .returning();
  const programmeRows = await db
    .insert(programmes)
    .values(
      school.programmes.map((name) => ({ name, facultyId, finalLevel: defaultFinalLevel(name) })),
    )
    .returning();
  return { faculty: faculty!, departments: departmentRows, programmes: programmeRows };
}

let sequence = 0;

export type StudentFields = Partial<typeof students.$inferInsert> & {
  departmentId: number;
  programmeId: number;
  password?: string;
};

/**
 * Inserts a student with plausible defaults. Tests pass a cheap password cost; the seed keeps
 * the production cost so demo accounts behave exactly like real ones.
 */
/** The inserted row; its e-mail is a string unless the caller asked for none (decision 156). */
type Inserted<F> = Omit<typeof students.$inferSelect, "email"> & {
  email: F extends { email: null } ? null : string;
};

export async function insertStudent<F extends StudentFields>(
  db: Database,
  fields: F,
  cost?: Argon2Cost,
): Promise<Inserted<F>> {
  sequence += 1;
  const n = String(sequence).padStart(4, "0");
  const { password = "demo1234", passwordHash, ...rest } = fields;
  const [student] = await db
    .insert(students)
    .values({
      phone: `0805${String(randomInt(10_000_000)).padStart(7, "0")}`,
      email: `student-${randomUUID()}@example.com`,
      surname: "Adebayo",
      othername: `Tolu ${n}`,
      applicationNo: `APP/2024/${randomUUID().slice(0, 8)}`,
      matricNo: null,
      entrySession: "2024/2025",
      entryMode: "UTME",
      studyMode: "Full Time",
      level: 100,
      ...rest,
      // A caller making thousands of accounts with one password (the load simulation) hashes it
      // once and passes the stored hash, instead of paying for the same hash each time.
      passwordHash: passwordHash ?? (await hashPassword(password, cost)),
    })
    .returning();
  return student! as Inserted<F>;
}

export async function insertAnnouncements(db: Database, bodies: string[]) {
  return db
    .insert(announcements)
    .values(bodies.map((body) => ({ body })))
    .returning();
}
