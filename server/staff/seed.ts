import { inArray } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { departments, staff } from "../db/schema.ts";
import { hashPassword, type Argon2Cost } from "../auth/password.ts";
import type { StaffRole } from "../../common/staff/staff.ts";
import { replaceAdviserScopes } from "./accounts.ts";

/** One demo account per role (README lists them); never loaded in production. Names are people's names only: the header adds the role. */
export const DEMO_STAFF: { email: string; name: string; roles: StaffRole[] }[] = [
  { email: "registry@college.example", name: "Ngozi Eze", roles: ["registry"] },
  { email: "adviser@college.example", name: "Dr. Musa Abdullahi", roles: ["adviser"] },
  { email: "bursar@college.example", name: "Funke Adeyemi", roles: ["bursar"] },
  { email: "support@college.example", name: "Emeka Obi", roles: ["support"] },
  { email: "admin@college.example", name: "Aisha Lawal", roles: ["admin"] },
  { email: "lecturer@college.example", name: "Dr. Chukwudi Nwosu", roles: ["lecturer"] },
  { email: "hod@college.example", name: "Prof. Halima Sani", roles: ["hod"] },
  { email: "exams@college.example", name: "Tunde Bakare", roles: ["exams"] },
];

/** The demo adviser advises the demo students' departments at levels 100 and 200. */
const ADVISED_DEPARTMENTS = ["Biology", "English"];
const ADVISED_LEVELS = [100, 200];

export async function seedDemoStaff(db: Database, cost?: Argon2Cost) {
  const passwordHash = await hashPassword("demo1234", cost);
  const rows = await db
    .insert(staff)
    .values(DEMO_STAFF.map((member) => ({ ...member, passwordHash })))
    .returning();
  const adviser = rows.find((row) => row.email === "adviser@college.example")!;
  const advised = await db
    .select()
    .from(departments)
    .where(inArray(departments.name, ADVISED_DEPARTMENTS));
  await replaceAdviserScopes(
    db,
    adviser.id,
    advised.flatMap((department) =>
      ADVISED_LEVELS.map((level) => ({ department_id: department.id, level })),
    ),
  );
  return rows;
}
