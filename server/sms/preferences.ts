import { eq, sql } from "drizzle-orm";
import type { Database, Transaction } from "../db/client.ts";
import { smsPreferences, students } from "../db/schema.ts";
import type { SmsPreferences } from "../../common/sms/sms-preferences.ts";

/** The student's choices, or the defaults when they never made any. */
export async function smsPreferencesOf(
  db: Database | Transaction,
  studentId: number,
): Promise<SmsPreferences> {
  const [row] = await db
    .select()
    .from(smsPreferences)
    .where(eq(smsPreferences.studentId, studentId));
  return {
    registration_news: row?.registrationNews ?? true,
    stopped_at: row?.stoppedAt?.toISOString() ?? null,
  };
}

/** Whether registration news may be texted: chosen, and no STOP since. */
export async function wantsRegistrationNews(db: Database | Transaction, studentId: number) {
  const preferences = await smsPreferencesOf(db, studentId);
  return preferences.registration_news && preferences.stopped_at === null;
}

/** Saves the student's choice; choosing again lifts a STOP, as the page says it will. */
export async function saveSmsPreferences(
  db: Database,
  studentId: number,
  choice: { registrationNews: boolean },
  now: Date,
) {
  const values = { registrationNews: choice.registrationNews, stoppedAt: null, updatedAt: now };
  await db
    .insert(smsPreferences)
    .values({ studentId, ...values })
    .onConflictDoUpdate({ target: smsPreferences.studentId, set: values });
}

/**
 * A STOP reply from `phone` (the provider's opt-out callback): news stops for the student whose
 * number it is. Answers that student's id, or null for a number on no record (the provider is
 * told OK either way).
 */
export async function stopTexts(db: Database, phone: string, now: Date): Promise<number | null> {
  const [student] = await db
    .select({ id: students.id })
    .from(students)
    .where(eq(students.phone, phone));
  if (!student) return null;
  await db
    .insert(smsPreferences)
    .values({ studentId: student.id, stoppedAt: now, updatedAt: now })
    .onConflictDoUpdate({
      target: smsPreferences.studentId,
      // A second STOP keeps the first's time.
      set: {
        stoppedAt: sql`coalesce(${smsPreferences.stoppedAt}, excluded.stopped_at)`,
        updatedAt: now,
      },
    });
  return student.id;
}
