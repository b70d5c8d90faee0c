import { z } from "zod";
import type { StaffRole } from "../staff/staff.ts";

/** What a deadline reminder is about (decision 201): the session's school fee, or its course registration. */
export const REMINDER_KINDS = ["school_fee", "registration"] as const;
export type ReminderKind = (typeof REMINDER_KINDS)[number];

export const REMINDER_KIND_LABELS: Record<ReminderKind, string> = {
  school_fee: "School fee not paid",
  registration: "Courses not registered",
};

/** Whose work each reminder is: the bursary the fee's, the registry registration's, administrators both. */
export const REMINDER_ROLES: Record<ReminderKind, readonly StaffRole[]> = {
  school_fee: ["bursar", "admin"],
  registration: ["registry", "admin"],
};

/** The texts go this many days before the deadline, one each. */
export const REMINDER_DAYS_BEFORE = [3, 1] as const;

/** How far ahead a deadline may be: a session's deadlines are set within it. */
export const REMINDER_MAX_DAYS_AHEAD = 366;

/** `POST /staff/sms/reminders`: a deadline to remind students of. */
export const ScheduleReminderRequest = z.object({
  kind: z.enum(REMINDER_KINDS, {
    error: 'Choose what the reminder is for: "school_fee" or "registration".',
  }),
  deadline: z.iso.date({ error: "Write the deadline as a date, YYYY-MM-DD." }),
});
export type ScheduleReminderRequest = z.infer<typeof ScheduleReminderRequest>;

/** One scheduled reminder, as the staff page lists it. */
export const SmsReminder = z.object({
  id: z.number().int(),
  kind: z.enum(REMINDER_KINDS),
  session: z.string(),
  deadline: z.string(),
  /** The two Lagos days the texts go, earliest first. */
  sends_on: z.array(z.string()),
  scheduled_by: z.string(),
  cancelled_at: z.string().nullable(),
  /** The last day the daily cap held it back, if it did. */
  capped_on: z.string().nullable(),
});
export type SmsReminder = z.infer<typeof SmsReminder>;
export const SmsReminderList = z.object({
  data: z.object({ today: z.string(), reminders: z.array(SmsReminder) }),
});

/** The YYYY-MM-DD date `days` after (or before, when negative) another. */
export function addDays(day: string, days: number) {
  const at = new Date(`${day}T12:00:00Z`);
  at.setUTCDate(at.getUTCDate() + days);
  return at.toISOString().slice(0, 10);
}

/** The days a deadline's texts go, earliest first. */
export const reminderDays = (deadline: string) =>
  REMINDER_DAYS_BEFORE.map((days) => addDays(deadline, -days));
