import type { Queue } from "pg-boss";
import type { Database } from "../db/client.ts";
import type { Logger } from "../http/logger.ts";
import type { PaymentGateways } from "../payments/gateway.ts";
import type { PaymentReceipts } from "../payments/receipt.ts";
import type { JobQueue } from "./api-jobs.ts";
import { sendDueReminders } from "../sms/reminder-sending.ts";
import { reconcilePendingPayments } from "../payments/reconciler.ts";
import { reconcileUnconfirmedRefunds } from "../payments/refund-reconciler.ts";
import {
  purgeEndedContactChanges,
  purgeEndedStaffSessions,
  purgeEndedStudentSessions,
  purgeEndedUssdSessions,
  purgeSpentResetTokens,
  purgeSpentStaffPasswordTokens,
  purgeStaleRateLimits,
  purgeSpentLineAdmissions,
} from "./purges.ts";

/** What the scheduled jobs work with: the API's database, clock, payment gateways and job queue. */
export type ScheduledWorkDeps = {
  db: Database;
  logger: Logger;
  now: () => Date;
  gateways: PaymentGateways;
  receipts: PaymentReceipts;
  jobs: JobQueue;
  /** SMS_DAILY_CAP: the day's messages past which deadline reminders stop (decision 201). */
  smsDailyCap?: number;
};

/**
 * The work that runs on a clock rather than on a request (decision 121): each entry is a pg-boss
 * queue of its own, with a cron schedule in UTC. pg-boss sends one job per occurrence for the
 * whole deployment, and one instance takes it. The purges are spread over the hour so they do
 * not run at once.
 */
export const SCHEDULED_JOBS = {
  /** Pending payments whose browser closed and whose webhook was lost are credited from here. */
  "reconcile-payments": {
    cron: "* * * * *",
    run: (deps: ScheduledWorkDeps) => reconcilePendingPayments(deps),
  },
  /** Refunds a gateway never answered are found in its list and settled (decision 141). */
  "reconcile-refunds": {
    cron: "*/5 * * * *",
    run: (deps: ScheduledWorkDeps) => reconcileUnconfirmedRefunds(deps),
  },
  "purge-student-sessions": {
    cron: "5 * * * *",
    // A student's USSD sessions go with their web sessions: one run, one more table.
    run: async (deps: ScheduledWorkDeps) =>
      (await purgeEndedStudentSessions(deps.db, deps.now())) +
      (await purgeEndedUssdSessions(deps.db, deps.now())),
  },
  "purge-staff-sessions": {
    cron: "10 * * * *",
    run: (deps: ScheduledWorkDeps) => purgeEndedStaffSessions(deps.db, deps.now()),
  },
  "purge-rate-limits": {
    cron: "15 * * * *",
    run: (deps: ScheduledWorkDeps) => purgeStaleRateLimits(deps.db, deps.now()),
  },
  "purge-reset-tokens": {
    cron: "20 * * * *",
    run: (deps: ScheduledWorkDeps) => purgeSpentResetTokens(deps.db, deps.now()),
  },
  "purge-contact-changes": {
    cron: "25 * * * *",
    run: (deps: ScheduledWorkDeps) => purgeEndedContactChanges(deps.db, deps.now()),
  },
  "purge-staff-password-tokens": {
    cron: "30 * * * *",
    run: (deps: ScheduledWorkDeps) => purgeSpentStaffPasswordTokens(deps.db, deps.now()),
  },
  "purge-line-admissions": {
    cron: "35 * * * *",
    run: (deps: ScheduledWorkDeps) => purgeSpentLineAdmissions(deps.db, deps.now()),
  },
  /**
   * Deadline reminders, 3 days and 1 day before (decision 201): every hour, so a day's texts go
   * from the first waking hour; the run itself keeps to 07:00–21:00 Lagos and to one a day.
   */
  "send-deadline-reminders": {
    cron: "45 * * * *",
    run: (deps: ScheduledWorkDeps) => sendDueReminders(deps),
  },
} satisfies Record<string, { cron: string; run: (deps: ScheduledWorkDeps) => Promise<number> }>;

export type ScheduledJobName = keyof typeof SCHEDULED_JOBS;
export const SCHEDULED_JOB_NAMES = Object.keys(SCHEDULED_JOBS) as ScheduledJobName[];

/**
 * - `exclusive`: one job of a kind waiting or running in the whole deployment, so runs never
 *   overlap (two reconcilers would verify the same payments) and a slow run is not followed by a
 *   pile of occurrences that came due meanwhile: those are dropped.
 * - No retries: each run takes whatever is due when it starts, so the next occurrence (a minute
 *   later for the reconciler, an hour for a purge) does what a failed run left.
 * - A heartbeat: a job whose instance died stops counting as running within about a minute and a
 *   half (the heartbeat, then pg-boss's supervision pass), and the next occurrence runs elsewhere.
 * - `expireInSeconds` bounds a run that hangs without dying.
 */
export const SCHEDULED_QUEUE: Omit<Queue, "name"> = {
  policy: "exclusive",
  retryLimit: 0,
  heartbeatSeconds: 30,
  expireInSeconds: 10 * 60,
  deleteAfterSeconds: 24 * 60 * 60,
  // The cron pass's job wakes a worker at once on PostgreSQL (job-queue.ts).
  notify: true,
};

/** How often a worker asks for scheduled work where nothing wakes it (PGlite): jobs come once a minute at most. */
export const SCHEDULED_POLLING_SECONDS = 10;

/** The handlers one serving instance runs, each on the API's own dependencies. */
export function scheduledWork(
  deps: ScheduledWorkDeps,
): Record<ScheduledJobName, () => Promise<number>> {
  return Object.fromEntries(
    SCHEDULED_JOB_NAMES.map((name) => [name, () => SCHEDULED_JOBS[name].run(deps)]),
  ) as Record<ScheduledJobName, () => Promise<number>>;
}
