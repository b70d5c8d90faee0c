import { eq } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { insertStudent } from "../db/factories.ts";
import { departments, programmes } from "../db/schema.ts";

/** The demo student whose biodata the registry has locked (sign in with demo1234). */
export const LOCKED_DEMO_PHONE = "08030000003";

/** Adds a third demo student with a locked record, so the read-only biodata page can be seen. */
export async function seedLockedDemoStudent(db: Database) {
  const [department] = await db.select().from(departments).where(eq(departments.name, "Biology"));
  const [programme] = await db
    .select()
    .from(programmes)
    .where(eq(programmes.name, "NCE Biology/Chemistry"));
  await insertStudent(db, {
    phone: LOCKED_DEMO_PHONE,
    email: "emeka.nwosu@example.com",
    title: "Mr",
    surname: "Nwosu",
    othername: "Emeka Daniel",
    matricNo: "CCE/2021/BIO/0019",
    applicationNo: "APP/2021/000877",
    departmentId: department!.id,
    programmeId: programme!.id,
    entrySession: "2021/2022",
    entryMode: "UTME",
    studyMode: "Full Time",
    level: 300,
    maritalStatus: "Married",
    religion: "Christianity",
    dob: 3,
    mob: 11,
    yob: 2001,
    countryOrigin: "Nigeria",
    stateOrigin: "Imo",
    lgaOrigin: "Owerri Municipal",
    biodataLocked: true,
    biodataLockReason: "Checked against your admission documents at final-year screening.",
  });
}
