import { and, asc, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { smsReminders, students } from "../db/schema.ts";
import type { JobQueue } from "../jobs/api-jobs.ts";
import type { Logger } from "../http/logger.ts";
import { internationalPhone } from "./phone-numbers.ts";
import { wantsSmsNewsWhere } from "./preferences.ts";
import { deadlineReminderText } from "./templates.ts";
import { smsQueuedToday } from "./daily-cap.ts";
import { collegeDate, collegeHour } from "../../common/format/dates.ts";
import { spelledDate } from "../../common/courses/registration-window.ts";
import { paymentCompleteFrom } from "../../common/payments/fee-status.ts";
import {
  addDays,
  REMINDER_DAYS_BEFORE,
  type ReminderKind,
} from "../../common/sms/sms-reminders.ts";

/** Reminders go from 07:00 to 20:59 in Lagos: never at night. */
export const REMINDER_HOURS = { from: 7, until: 21 } as const;

type Reminder = typeof smsReminders.$inferSelect;

export type ReminderDeps = {
  db: Database;
  jobs: JobQueue;
  logger: Logger;
  now: () => Date;
  /** SMS_DAILY_CAP; unset, no cap. */
  smsDailyCap?: number;
};

/**
 * The students a reminder is for today: still at the college, who want reminders (no STOP), not
 * yet reminded today (by this reminder or another), and who still owe what it is about — nothing
 * paid towards the session's school fee at their level (the dashboard's "Not Paid"), or no course
 * registered in the session.
 */
async function owing(db: Database, reminder: Reminder, today: string) {
  const notRemindedToday = sql`not exists (select 1 from sms_messages m where m.idempotency_key = 'reminder:' || students.id || ':' || ${today})`;
  const base = and(
    eq(students.stage, "student"),
    wantsSmsNewsWhere("deadline_reminders"),
    notRemindedToday,
  );
  if (reminder.kind === "registration")
    return db
      .select({ id: students.id, phone: students.phone })
      .from(students)
      .where(
        and(
          base,
          sql`not exists (select 1 from course_registrations r where r.student_id = students.id and r.session = ${reminder.session})`,
        ),
      )
      .orderBy(asc(students.id));
  const rows = await db
    .select({
      id: students.id,
      phone: students.phone,
      // As the dashboard reads it (placementColumns): a fee of another level does not settle it.
      paid: sql<
        string[]
      >`array(select pay.payment_option from payments pay where pay.student_id = students.id and pay.status = 'success' and pay.kind = 'school_fee' and pay.session = ${reminder.session} and pay.level = students.level)`,
    })
    .from(students)
    .where(base)
    .orderBy(asc(students.id));
  return rows.filter((row) => paymentCompleteFrom(row.paid) === null);
}

/**
 * The hourly run (decision 201): texts the students each reminder is for on its 3rd and 1st day
 * before the deadline, within REMINDER_HOURS. One reminder a day per student whatever is due
 * (keyed `reminder:<student>:<Lagos day>`), so a repeated run sends nothing twice. When the day's
 * messages reach SMS_DAILY_CAP the run stops; the reminders held back are marked with the day,
 * and the log says so once a day. Answers how many texts it queued.
 */
export async function sendDueReminders(deps: ReminderDeps): Promise<number> {
  const now = deps.now();
  const hour = collegeHour(now);
  if (hour < REMINDER_HOURS.from || hour >= REMINDER_HOURS.until) return 0;
  const today = collegeDate(now);
  const due = await deps.db
    .select()
    .from(smsReminders)
    .where(
      and(
        isNull(smsReminders.cancelledAt),
        inArray(
          smsReminders.deadline,
          REMINDER_DAYS_BEFORE.map((days) => addDays(today, days)),
        ),
      ),
    )
    // The nearest deadline first: a student owed two reminders today gets the more urgent one.
    .orderBy(asc(smsReminders.deadline), asc(smsReminders.id));
  const cap = deps.smsDailyCap;
  let queuedToday = cap === undefined ? 0 : await smsQueuedToday(deps.db, now);
  let queued = 0;
  for (const [index, reminder] of due.entries()) {
    const daysLeft = REMINDER_DAYS_BEFORE.find(
      (days) => addDays(today, days) === reminder.deadline,
    )!;
    const text = deadlineReminderText(
      reminder.kind as ReminderKind,
      reminder.session,
      spelledDate(reminder.deadline),
      daysLeft,
    );
    for (const person of await owing(deps.db, reminder, today)) {
      if (cap !== undefined && queuedToday >= cap) {
        await noteCapped(deps, due.slice(index), today, cap);
        return queued;
      }
      const sent = await deps.jobs.sendSms(deps.db, {
        key: `reminder:${person.id}:${today}`,
        kind: `reminder-${reminder.kind}`.replace("_", "-"),
        studentId: person.id,
        to: internationalPhone(person.phone),
        text,
      });
      if (sent) {
        queued += 1;
        queuedToday += 1;
      }
    }
  }
  return queued;
}

/** Marks the reminders the cap held back today; the first run to do so logs it. */
async function noteCapped(deps: ReminderDeps, held: Reminder[], today: string, cap: number) {
  const marked = await deps.db
    .update(smsReminders)
    .set({ cappedOn: today })
    .where(
      and(
        inArray(
          smsReminders.id,
          held.map((reminder) => reminder.id),
        ),
        sql`${smsReminders.cappedOn} is distinct from ${today}::date`,
      ),
    )
    .returning({ id: smsReminders.id });
  if (marked.length)
    deps.logger.warn("SMS daily cap reached; deadline reminders stop until tomorrow", {
      cap,
      reminders: marked.map((row) => row.id),
    });
}
