import { and, inArray, lt, or, type Column, type SQL } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import {
  authSessions,
  contactChangeRequests,
  passwordResetTokens,
  rateLimits,
  staffPasswordTokens,
  staffSessions,
  waitingLineAdmissions,
} from "../db/schema.ts";
import { LONGEST_RATE_LIMIT_SPAN_MS } from "../auth/rate-limit.ts";

const DAY_MS = 24 * 60 * 60_000;

/**
 * A session, link or request that ended (expired, signed out, used) is kept one more day: long
 * enough for the help desk to see what happened to yesterday's link, short enough that the
 * tables stay the size of the people using them now.
 */
export const KEEP_ENDED_ROWS_MS = DAY_MS;

/** Twice the longest span any limit counts over, so no count still in force is ever forgotten. */
export const KEEP_RATE_LIMIT_ROWS_MS = 2 * LONGEST_RATE_LIMIT_SPAN_MS;

/**
 * Rows per statement and statements per run: each statement holds its locks briefly, and one run
 * stays short; what is left over is taken by the next run.
 */
export type PurgeBatches = { size: number; most: number };
export const PURGE_BATCHES: PurgeBatches = { size: 1_000, most: 50 };

/** Students' sessions that expired or were signed out more than a day ago. */
export function purgeEndedStudentSessions(db: Database, now: Date, batches = PURGE_BATCHES) {
  const ended = endedBefore(
    cutoff(now, KEEP_ENDED_ROWS_MS),
    authSessions.expiresAt,
    authSessions.revokedAt,
  );
  return inBatches(batches, (size) =>
    db
      .delete(authSessions)
      .where(
        and(
          ended,
          inArray(
            authSessions.tokenHash,
            db.select({ key: authSessions.tokenHash }).from(authSessions).where(ended).limit(size),
          ),
        ),
      )
      .returning({ key: authSessions.tokenHash }),
  );
}

/** Staff sessions that expired or were signed out more than a day ago. */
export function purgeEndedStaffSessions(db: Database, now: Date, batches = PURGE_BATCHES) {
  const ended = endedBefore(
    cutoff(now, KEEP_ENDED_ROWS_MS),
    staffSessions.expiresAt,
    staffSessions.revokedAt,
  );
  return inBatches(batches, (size) =>
    db
      .delete(staffSessions)
      .where(
        and(
          ended,
          inArray(
            staffSessions.tokenHash,
            db
              .select({ key: staffSessions.tokenHash })
              .from(staffSessions)
              .where(ended)
              .limit(size),
          ),
        ),
      )
      .returning({ key: staffSessions.tokenHash }),
  );
}

/**
 * Rate-limit counters whose window began more than two days ago. A new attempt on such a key
 * starts from nothing anyway (server/auth/rate-limit.ts, backoff-limiter.ts), so deleting the
 * row changes no decision.
 */
export function purgeStaleRateLimits(db: Database, now: Date, batches = PURGE_BATCHES) {
  const stale = lt(rateLimits.windowStartedAt, cutoff(now, KEEP_RATE_LIMIT_ROWS_MS));
  return inBatches(batches, (size) =>
    db
      .delete(rateLimits)
      .where(
        and(
          stale,
          inArray(
            rateLimits.key,
            db.select({ key: rateLimits.key }).from(rateLimits).where(stale).limit(size),
          ),
        ),
      )
      .returning({ key: rateLimits.key }),
  );
}

/** Students' password reset and activation links used or expired more than a day ago. */
export function purgeSpentResetTokens(db: Database, now: Date, batches = PURGE_BATCHES) {
  const spent = endedBefore(
    cutoff(now, KEEP_ENDED_ROWS_MS),
    passwordResetTokens.expiresAt,
    passwordResetTokens.usedAt,
  );
  return inBatches(batches, (size) =>
    db
      .delete(passwordResetTokens)
      .where(
        and(
          spent,
          inArray(
            passwordResetTokens.id,
            db
              .select({ key: passwordResetTokens.id })
              .from(passwordResetTokens)
              .where(spent)
              .limit(size),
          ),
        ),
      )
      .returning({ key: passwordResetTokens.id }),
  );
}

/** Phone and e-mail changes whose link was used or expired more than a day ago. */
export function purgeEndedContactChanges(db: Database, now: Date, batches = PURGE_BATCHES) {
  const ended = endedBefore(
    cutoff(now, KEEP_ENDED_ROWS_MS),
    contactChangeRequests.expiresAt,
    contactChangeRequests.usedAt,
  );
  return inBatches(batches, (size) =>
    db
      .delete(contactChangeRequests)
      .where(
        and(
          ended,
          inArray(
            contactChangeRequests.id,
            db
              .select({ key: contactChangeRequests.id })
              .from(contactChangeRequests)
              .where(ended)
              .limit(size),
          ),
        ),
      )
      .returning({ key: contactChangeRequests.id }),
  );
}

/** Staff invitation and password links used, replaced or expired more than a day ago. */
export function purgeSpentStaffPasswordTokens(db: Database, now: Date, batches = PURGE_BATCHES) {
  const spent = endedBefore(
    cutoff(now, KEEP_ENDED_ROWS_MS),
    staffPasswordTokens.expiresAt,
    staffPasswordTokens.usedAt,
  );
  return inBatches(batches, (size) =>
    db
      .delete(staffPasswordTokens)
      .where(
        and(
          spent,
          inArray(
            staffPasswordTokens.id,
            db
              .select({ key: staffPasswordTokens.id })
              .from(staffPasswordTokens)
              .where(spent)
              .limit(size),
          ),
        ),
      )
      .returning({ key: staffPasswordTokens.id }),
  );
}

const cutoff = (now: Date, keptMs: number) => new Date(now.getTime() - keptMs);

/** Ended before `before` by either of two clocks (a nullable one never matches while null). */
function endedBefore(before: Date, expiresAt: Column, endedAt: Column): SQL {
  return or(lt(expiresAt, before), lt(endedAt, before))!;
}

/**
 * Deletes batch after batch until one comes back short. Each statement repeats the condition
 * beside the batch's keys: a row picked for deletion that changes meanwhile (a rate-limit key
 * counting a new attempt) is checked again under its lock and kept. Answers how many went.
 */
async function inBatches(
  batches: PurgeBatches,
  deleteBatch: (size: number) => Promise<unknown[]>,
): Promise<number> {
  let deleted = 0;
  for (let batch = 0; batch < batches.most; batch++) {
    const gone = (await deleteBatch(batches.size)).length;
    deleted += gone;
    if (gone < batches.size) break;
  }
  return deleted;
}

/**
 * Tickets of the line at the door exchanged for a pass more than a day ago. A ticket is spent two
 * hours after it was handed out (proxy/waiting-line/tickets.ts), so none of these can be shown
 * again: the row that stops a copy coming in twice has nothing left to stop.
 */
export function purgeSpentLineAdmissions(db: Database, now: Date, batches = PURGE_BATCHES) {
  const spent = lt(waitingLineAdmissions.admittedAt, cutoff(now, KEEP_ENDED_ROWS_MS));
  return inBatches(batches, (size) =>
    db
      .delete(waitingLineAdmissions)
      .where(
        and(
          spent,
          inArray(
            waitingLineAdmissions.ticket,
            db
              .select({ key: waitingLineAdmissions.ticket })
              .from(waitingLineAdmissions)
              .where(spent)
              .limit(size),
          ),
        ),
      )
      .returning({ key: waitingLineAdmissions.ticket }),
  );
}
