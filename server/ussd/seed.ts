import { inArray } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { students, ussdAccounts } from "../db/schema.ts";
import { hashPassword } from "../auth/password.ts";

/** The demo students' USSD PIN (README), for trying the menu at /dev/ussd after `npm start`. */
export const DEMO_USSD_PIN = "2580";
const DEMO_USSD_PHONES = ["08030000001", "08030000002", "08030000004"];

// One hash for all of them, once a process: every API test file loads the demo data.
let demoPinHash: Promise<string> | undefined;

export async function seedDemoUssdPins(db: Database, now = new Date()) {
  const pinHash = await (demoPinHash ??= hashPassword(DEMO_USSD_PIN));
  const demo = await db
    .select({ id: students.id })
    .from(students)
    .where(inArray(students.phone, DEMO_USSD_PHONES));
  if (!demo.length) return;
  await db
    .insert(ussdAccounts)
    .values(demo.map((student) => ({ studentId: student.id, pinHash, pinSetAt: now })))
    .onConflictDoNothing();
}
