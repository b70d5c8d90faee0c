import { and, asc, eq, gte, isNull } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { smsReminders, staff } from "../db/schema.ts";
import { ApiError } from "../http/errors.ts";
import { recordAudit } from "../audit/audit.ts";
import { currentSessionName } from "../students/student-record.ts";
import type { SignedInStaff } from "../staff/staff-sessions.ts";
import { collegeDate } from "../../common/format/dates.ts";
import { spelledDate } from "../../common/courses/registration-window.ts";
import {
  addDays,
  REMINDER_KIND_LABELS,
  REMINDER_MAX_DAYS_AHEAD,
  REMINDER_ROLES,
  reminderDays,
  type ReminderKind,
  type ScheduleReminderRequest,
  type SmsReminder,
} from "../../common/sms/sms-reminders.ts";

type Member = Pick<SignedInStaff, "id" | "roles">;

const WHOSE: Record<ReminderKind, string> = {
  school_fee: "School fee reminders are the bursary's and administrators' to schedule.",
  registration: "Registration reminders are the registry's and administrators' to schedule.",
};

function assertMayHandle(member: Member, kind: ReminderKind) {
  if (!REMINDER_ROLES[kind].some((role) => member.roles.includes(role)))
    throw new ApiError(403, WHOSE[kind]);
}

/**
 * Schedules a deadline reminder of the current session (decision 201): texts go 3 days and 1 day
 * before the deadline to the students it concerns. Audited.
 */
export async function scheduleReminder(
  db: Database,
  member: Member,
  request: ScheduleReminderRequest,
  now: Date,
): Promise<string> {
  assertMayHandle(member, request.kind);
  const today = collegeDate(now);
  if (request.deadline <= today)
    throw new ApiError(400, "Choose a deadline after today.", {
      fields: {
        deadline: "Choose a deadline after today: the texts go 3 days and 1 day before it.",
      },
    });
  if (request.deadline > addDays(today, REMINDER_MAX_DAYS_AHEAD))
    throw new ApiError(400, "Choose a deadline within a year.", {
      fields: { deadline: "Choose a deadline within a year of today." },
    });
  const session = await currentSessionName(db);
  if (!session)
    throw new ApiError(
      409,
      "No session is current, so there is nothing to remind students of. Ask the registry to make a session current first.",
    );
  return db.transaction(async (tx) => {
    // The partial unique index decides between two officers scheduling the same deadline at once.
    const [row] = await tx
      .insert(smsReminders)
      .values({ ...request, session, scheduledBy: member.id, createdAt: now })
      .onConflictDoNothing()
      .returning();
    if (!row)
      throw new ApiError(
        409,
        `A reminder for this deadline is already scheduled (${REMINDER_KIND_LABELS[request.kind]}, ${spelledDate(request.deadline)}).`,
      );
    const after = { kind: request.kind, session, deadline: request.deadline };
    await recordAudit(
      tx,
      {
        staffId: member.id,
        action: "sms_reminder.schedule",
        entity: "sms_reminder",
        entityId: row!.id,
        after,
      },
      now,
    );
    const days = reminderDays(request.deadline).filter((day) => day >= today);
    return `Reminder scheduled for ${session}: texts go on ${days.map(spelledDate).join(" and ")}, between 7 am and 9 pm.`;
  });
}

/** Cancels a scheduled reminder: texts not yet sent never go. Audited. */
export async function cancelReminder(db: Database, member: Member, id: number, now: Date) {
  const [row] = await db.select().from(smsReminders).where(eq(smsReminders.id, id));
  if (!row) throw new ApiError(404, "There is no such reminder. Choose one from the list.");
  assertMayHandle(member, row.kind as ReminderKind);
  if (row.cancelledAt) throw new ApiError(409, "That reminder is cancelled already.");
  if (row.deadline < collegeDate(now))
    throw new ApiError(409, "That deadline has passed: there is nothing left to cancel.");
  await db.transaction(async (tx) => {
    const cancelled = await tx
      .update(smsReminders)
      .set({ cancelledAt: now, cancelledBy: member.id })
      .where(and(eq(smsReminders.id, id), isNull(smsReminders.cancelledAt)))
      .returning({ id: smsReminders.id });
    if (!cancelled.length) throw new ApiError(409, "That reminder is cancelled already.");
    await recordAudit(
      tx,
      {
        staffId: member.id,
        action: "sms_reminder.cancel",
        entity: "sms_reminder",
        entityId: id,
        before: { kind: row.kind, session: row.session, deadline: row.deadline },
      },
      now,
    );
  });
  return "Reminder cancelled: its texts not yet sent will not go.";
}

/** Reminders whose deadline is at most a week past, soonest first: what the staff page lists. */
export async function listReminders(db: Database, now: Date) {
  const today = collegeDate(now);
  const rows = await db
    .select({ reminder: smsReminders, scheduledBy: staff.name })
    .from(smsReminders)
    .innerJoin(staff, eq(staff.id, smsReminders.scheduledBy))
    .where(gte(smsReminders.deadline, addDays(today, -7)))
    .orderBy(asc(smsReminders.deadline), asc(smsReminders.id));
  const reminders: SmsReminder[] = rows.map(({ reminder, scheduledBy }) => ({
    id: reminder.id,
    kind: reminder.kind as ReminderKind,
    session: reminder.session,
    deadline: reminder.deadline,
    sends_on: reminderDays(reminder.deadline),
    scheduled_by: scheduledBy,
    cancelled_at: reminder.cancelledAt?.toISOString() ?? null,
    capped_on: reminder.cappedOn,
  }));
  return { today, reminders };
}
