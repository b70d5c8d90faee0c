import { and, inArray, lt, or, type Column, type SQL } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { Database } from "../db/client.ts";
import {
  authSessions,
  contactChangeRequests,
  passwordResetTokens,
  rateLimits,
  staffPasswordTokens,
  staffSessions,
  ussdSessions,
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
  return deleteInBatches(db, batches, authSessions, authSessions.tokenHash, ended);
}

/**
 * USSD sessions whose PIN was given more than a day ago: a network ends a USSD session within
 * minutes, and the menu takes a session's PIN for ten (server/ussd/pin.ts).
 */
export function purgeEndedUssdSessions(db: Database, now: Date, batches = PURGE_BATCHES) {
  const ended = lt(ussdSessions.pinGivenAt, cutoff(now, KEEP_ENDED_ROWS_MS));
  return deleteInBatches(db, batches, ussdSessions, ussdSessions.sessionId, ended);
}

/** Staff sessions that expired or were signed out more than a day ago. */
export function purgeEndedStaffSessions(db: Database, now: Date, batches = PURGE_BATCHES) {
  const ended = endedBefore(
    cutoff(now, KEEP_ENDED_ROWS_MS),
    staffSessions.expiresAt,
    staffSessions.revokedAt,
  );
  return deleteInBatches(db, batches, staffSessions, staffSessions.tokenHash, ended);
}

/**
 * Rate-limit counters whose window began more than two days ago. A new attempt on such a key
 * starts from nothing anyway (server/auth/rate-limit.ts, backoff-limiter.ts), so deleting the
 * row changes no decision.
 */
export function purgeStaleRateLimits(db: Database, now: Date, batches = PURGE_BATCHES) {
  const stale = lt(rateLimits.windowStartedAt, cutoff(now, KEEP_RATE_LIMIT_ROWS_MS));
  return deleteInBatches(db, batches, rateLimits, rateLimits.key, stale);
}

/** Students' password reset and activation links used or expired more than a day ago. */
export function purgeSpentResetTokens(db: Database, now: Date, batches = PURGE_BATCHES) {
  const spent = endedBefore(
    cutoff(now, KEEP_ENDED_ROWS_MS),
    passwordResetTokens.expiresAt,
    passwordResetTokens.usedAt,
  );
  return deleteInBatches(db, batches, passwordResetTokens, passwordResetTokens.id, spent);
}

/** Phone and e-mail changes whose link was used or expired more than a day ago. */
export function purgeEndedContactChanges(db: Database, now: Date, batches = PURGE_BATCHES) {
  const ended = endedBefore(
    cutoff(now, KEEP_ENDED_ROWS_MS),
    contactChangeRequests.expiresAt,
    contactChangeRequests.usedAt,
  );
  return deleteInBatches(db, batches, contactChangeRequests, contactChangeRequests.id, ended);
}

/** Staff invitation and password links used, replaced or expired more than a day ago. */
export function purgeSpentStaffPasswordTokens(db: Database, now: Date, batches = PURGE_BATCHES) {
  const spent = endedBefore(
    cutoff(now, KEEP_ENDED_ROWS_MS),
    staffPasswordTokens.expiresAt,
    staffPasswordTokens.usedAt,
  );
  return deleteInBatches(db, batches, staffPasswordTokens, staffPasswordTokens.id, spent);
}

const cutoff = (now: Date, keptMs: number) => new Date(now.getTime() - keptMs);

/** Ended before `before` by either of two clocks (a nullable one never matches while null). */
function endedBefore(before: Date, expiresAt: Column, endedAt: Column): SQL {
  return or(lt(expiresAt, before), lt(endedAt, before))!;
}

/**
 * Deletes the rows of `table` matching `condition`, batch after batch until one comes back short,
 * each batch picked by its `key`. Each statement repeats the condition beside the batch's keys: a
 * row picked for deletion that changes meanwhile (a rate-limit key counting a new attempt) is
 * checked again under its lock and kept. Answers how many went.
 */
async function deleteInBatches(
  db: Database,
  batches: PurgeBatches,
  table: PgTable,
  key: PgColumn,
  condition: SQL,
): Promise<number> {
  let deleted = 0;
  for (let batch = 0; batch < batches.most; batch++) {
    const picked = db.select({ key }).from(table).where(condition).limit(batches.size);
    const gone = (
      await db
        .delete(table)
        .where(and(condition, inArray(key, picked)))
        .returning({ key })
    ).length;
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
  return deleteInBatches(db, batches, waitingLineAdmissions, waitingLineAdmissions.ticket, spent);
}
