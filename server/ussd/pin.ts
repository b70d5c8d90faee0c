import { and, eq, gt, isNull, lte, or, sql } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { students, ussdAccounts, ussdSessions } from "../db/schema.ts";
import { hashPassword, verifyPassword } from "../auth/password.ts";
import { ApiError } from "../http/errors.ts";
import type { JobQueue } from "../jobs/api-jobs.ts";
import { internationalPhone } from "../sms/phone-numbers.ts";
import {
  USSD_PIN_WRONG_PASSWORD,
  type UssdLanguage,
  type UssdPinState,
} from "../../common/ussd/ussd-pin.ts";
import { ussdLockedText } from "./sms-texts.ts";

/** Wrong PINs in a row that lock the menu for the phone, and for how long (issue 35). */
export const WRONG_PINS_BEFORE_LOCK = 3;
export const LOCK_MS = 60 * 60_000;
/** How long a session's given PIN is good for: the networks end a USSD session within minutes. */
export const SESSION_MS = 10 * 60_000;

/** What the biodata page shows about the student's PIN. */
export async function ussdPinState(
  db: Database,
  studentId: number,
  now: Date,
  dialCode: string | null,
): Promise<UssdPinState> {
  const [account] = await db
    .select({ pinSetAt: ussdAccounts.pinSetAt, lockedUntil: ussdAccounts.lockedUntil })
    .from(ussdAccounts)
    .where(eq(ussdAccounts.studentId, studentId));
  const locked = account?.lockedUntil && account.lockedUntil > now ? account.lockedUntil : null;
  return {
    pin_set_at: account?.pinSetAt.toISOString() ?? null,
    locked_until: locked?.toISOString() ?? null,
    dial_code: dialCode,
  };
}

/**
 * Sets the student's PIN once their password is right. A new PIN lifts a lock (the student proved
 * who they are) and ends every USSD session the old one opened.
 */
export async function setUssdPin(
  db: Database,
  student: { id: number; passwordHash: string },
  request: { pin: string; password: string },
  now: Date,
) {
  if (!(await verifyPassword(request.password, student.passwordHash)))
    throw new ApiError(400, USSD_PIN_WRONG_PASSWORD, {
      fields: { password: "Your password is not right." },
    });
  const pinHash = await hashPassword(request.pin);
  await db.transaction(async (tx) => {
    const values = { pinHash, pinSetAt: now, wrongPins: 0, lockedUntil: null };
    await tx
      .insert(ussdAccounts)
      .values({ studentId: student.id, ...values })
      .onConflictDoUpdate({ target: ussdAccounts.studentId, set: values });
    await tx.delete(ussdSessions).where(eq(ussdSessions.studentId, student.id));
  });
}

/** The caller as the menu knows them: the student whose number it is, if they have set a PIN. */
export type UssdCaller = {
  studentId: number;
  phone: string;
  language: UssdLanguage;
  lockedUntil: Date | null;
};

export async function ussdCaller(db: Database, phone: string, now: Date) {
  const [row] = await db
    .select({
      studentId: students.id,
      phone: students.phone,
      language: ussdAccounts.language,
      lockedUntil: ussdAccounts.lockedUntil,
    })
    .from(students)
    .innerJoin(ussdAccounts, eq(ussdAccounts.studentId, students.id))
    .where(eq(students.phone, phone));
  if (!row) return null;
  return {
    ...row,
    language: row.language as UssdLanguage,
    lockedUntil: row.lockedUntil && row.lockedUntil > now ? row.lockedUntil : null,
  } satisfies UssdCaller;
}

export type PinCheck =
  | { kind: "right" }
  | { kind: "wrong"; triesLeft: number }
  /** `lockedNow`: this try was the third wrong one, not one refused by a lock already on. */
  | { kind: "locked"; until: Date; lockedNow: boolean };

/**
 * Checks a PIN for the caller. The try is counted before the comparison, in one UPDATE that
 * PostgreSQL re-checks on the locked row: PINs sent at once get three comparisons between them,
 * not three each. The third wrong one locks the menu for an hour and texts the student.
 */
export async function checkUssdPin(
  db: Database,
  jobs: Pick<JobQueue, "sendSms">,
  caller: UssdCaller,
  session: { sessionId: string; pin: string },
  now: Date,
): Promise<PinCheck> {
  const [counted] = await db
    .update(ussdAccounts)
    .set({ wrongPins: sql`${ussdAccounts.wrongPins} + 1` })
    .where(
      and(
        eq(ussdAccounts.studentId, caller.studentId),
        sql`${ussdAccounts.wrongPins} < ${WRONG_PINS_BEFORE_LOCK}`,
        or(isNull(ussdAccounts.lockedUntil), lte(ussdAccounts.lockedUntil, now)),
      ),
    )
    .returning({ pinHash: ussdAccounts.pinHash, wrongPins: ussdAccounts.wrongPins });
  if (!counted)
    return { kind: "locked", until: await lockEnd(db, caller.studentId, now), lockedNow: false };
  if (await verifyPassword(session.pin, counted.pinHash)) {
    await db.transaction(async (tx) => {
      await tx
        .update(ussdAccounts)
        .set({ wrongPins: 0 })
        .where(eq(ussdAccounts.studentId, caller.studentId));
      await tx
        .insert(ussdSessions)
        .values({
          sessionId: session.sessionId,
          studentId: caller.studentId,
          phone: caller.phone,
          pinGivenAt: now,
        })
        .onConflictDoNothing();
    });
    return { kind: "right" };
  }
  if (counted.wrongPins < WRONG_PINS_BEFORE_LOCK)
    return { kind: "wrong", triesLeft: WRONG_PINS_BEFORE_LOCK - counted.wrongPins };
  const until = new Date(now.getTime() + LOCK_MS);
  await db.transaction(async (tx) => {
    await tx
      .update(ussdAccounts)
      .set({ wrongPins: 0, lockedUntil: until })
      .where(eq(ussdAccounts.studentId, caller.studentId));
    await jobs.sendSms(tx, {
      key: `ussd-locked:${caller.studentId}:${until.toISOString()}`,
      kind: "ussd-locked",
      studentId: caller.studentId,
      to: internationalPhone(caller.phone),
      text: ussdLockedText(caller.language, until),
    });
  });
  return { kind: "locked", until, lockedNow: true };
}

/** When the lock that refused a try ends (a try counted by a racing request may have just set it). */
async function lockEnd(db: Database, studentId: number, now: Date) {
  const [row] = await db
    .select({ lockedUntil: ussdAccounts.lockedUntil })
    .from(ussdAccounts)
    .where(eq(ussdAccounts.studentId, studentId));
  return row?.lockedUntil && row.lockedUntil > now
    ? row.lockedUntil
    : new Date(now.getTime() + LOCK_MS);
}

/** Whether this session gave the right PIN, from this phone, for this student, lately. */
export async function sessionHasPin(
  db: Database,
  caller: UssdCaller,
  sessionId: string,
  now: Date,
): Promise<boolean> {
  const [row] = await db
    .select({ sessionId: ussdSessions.sessionId })
    .from(ussdSessions)
    .where(
      and(
        eq(ussdSessions.sessionId, sessionId),
        eq(ussdSessions.studentId, caller.studentId),
        eq(ussdSessions.phone, caller.phone),
        gt(ussdSessions.pinGivenAt, new Date(now.getTime() - SESSION_MS)),
      ),
    );
  return Boolean(row);
}

export async function setUssdLanguage(db: Database, studentId: number, language: UssdLanguage) {
  await db.update(ussdAccounts).set({ language }).where(eq(ussdAccounts.studentId, studentId));
}
