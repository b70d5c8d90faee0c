import { eq, sql } from "drizzle-orm";
import type { Database, Transaction } from "../db/client.ts";
import { smsPreferences, students } from "../db/schema.ts";
import type {
  SmsNews,
  SmsPreferences,
  SmsPreferencesRequest,
} from "../../common/sms/sms-preferences.ts";

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
    results_news: row?.resultsNews ?? true,
    deadline_reminders: row?.deadlineReminders ?? true,
    stopped_at: row?.stoppedAt?.toISOString() ?? null,
  };
}

/** Whether this kind of news may be texted to the student: chosen, and no STOP since. */
export async function wantsSmsNews(
  db: Database | Transaction,
  studentId: number,
  news: SmsNews,
): Promise<boolean> {
  const preferences = await smsPreferencesOf(db, studentId);
  return preferences[news] && preferences.stopped_at === null;
}

const NEWS_COLUMNS = {
  registration_news: "registration_news",
  results_news: "results_news",
  deadline_reminders: "deadline_reminders",
} satisfies Record<SmsNews, string>;

/**
 * The same rule as `wantsSmsNews`, for a query that reads many students at once: `students.id`
 * has no row saying no and no STOP. Written out (as placementColumns is), because in a query on
 * one table the ORM leaves column names unqualified.
 */
export function wantsSmsNewsWhere(news: SmsNews) {
  return sql.raw(
    `not exists (select 1 from sms_preferences p where p.student_id = students.id and (not p.${NEWS_COLUMNS[news]} or p.stopped_at is not null))`,
  );
}

/** Saves the student's choices; choosing again lifts a STOP, as the page says it will. */
export async function saveSmsPreferences(
  db: Database,
  studentId: number,
  choice: SmsPreferencesRequest,
  now: Date,
) {
  const values = {
    registrationNews: choice.registration_news,
    resultsNews: choice.results_news,
    deadlineReminders: choice.deadline_reminders,
    stoppedAt: null,
    updatedAt: now,
  };
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
