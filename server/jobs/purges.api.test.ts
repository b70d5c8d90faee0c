import { gte, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  authSessions,
  contactChangeRequests,
  passwordResetTokens,
  rateLimits,
  waitingLineAdmissions,
  staff,
  staffPasswordTokens,
  staffSessions,
} from "../db/schema.ts";
import { createApiHarness, type ApiHarness } from "../testing/api-harness.test-kit.ts";
import { createRateLimiter } from "../auth/rate-limit.ts";
import { backoffRule } from "../auth/backoff-limiter.ts";
import {
  purgeEndedContactChanges,
  purgeEndedStaffSessions,
  purgeEndedStudentSessions,
  purgeSpentResetTokens,
  purgeSpentStaffPasswordTokens,
  purgeStaleRateLimits,
  purgeSpentLineAdmissions,
} from "./purges.ts";

const HOUR = 60 * 60_000;
const NOW = new Date("2025-06-02T12:00:00Z");
const at = (offsetMs: number) => new Date(NOW.getTime() + offsetMs);

let api: ApiHarness;
let studentId: number;
let staffId: number;
beforeAll(async () => {
  api = await createApiHarness();
  studentId = (await api.createStudent()).id;
  const [member] = await api.db
    .insert(staff)
    .values({ name: "Registry Officer", email: "registry-purge@college.test", roles: ["registry"] })
    .returning();
  staffId = member!.id;
});
afterAll(() => api.close());

/**
 * Every purged table keeps a row by an expiry and an end (signed out, used). Rows are named by
 * what should become of them; `endedAt` null means never signed out or used.
 */
const CASES = [
  { name: "live", expiresAt: at(HOUR), endedAt: null, kept: true },
  { name: "expired-23h-ago", expiresAt: at(-23 * HOUR), endedAt: null, kept: true },
  { name: "ended-23h-ago", expiresAt: at(HOUR), endedAt: at(-23 * HOUR), kept: true },
  { name: "expired-25h-ago", expiresAt: at(-25 * HOUR), endedAt: null, kept: false },
  { name: "ended-25h-ago", expiresAt: at(HOUR), endedAt: at(-25 * HOUR), kept: false },
  {
    name: "ended-and-expired-long-ago",
    expiresAt: at(-72 * HOUR),
    endedAt: at(-80 * HOUR),
    kept: false,
  },
];
type Case = (typeof CASES)[number];

/** For each purged table: how to insert a case (its token hash carries the name) and the purge. */
const TABLES = [
  {
    table: "auth_sessions",
    insert: (hash: string, row: Case) =>
      api.db
        .insert(authSessions)
        .values({ tokenHash: hash, studentId, expiresAt: row.expiresAt, revokedAt: row.endedAt }),
    remaining: async (prefix: string) =>
      (
        await api.db
          .select({ hash: authSessions.tokenHash })
          .from(authSessions)
          .where(like(authSessions.tokenHash, `${prefix}%`))
      ).map((r) => r.hash),
    purge: purgeEndedStudentSessions,
  },
  {
    table: "staff_sessions",
    insert: (hash: string, row: Case) =>
      api.db
        .insert(staffSessions)
        .values({ tokenHash: hash, staffId, expiresAt: row.expiresAt, revokedAt: row.endedAt }),
    remaining: async (prefix: string) =>
      (
        await api.db
          .select({ hash: staffSessions.tokenHash })
          .from(staffSessions)
          .where(like(staffSessions.tokenHash, `${prefix}%`))
      ).map((r) => r.hash),
    purge: purgeEndedStaffSessions,
  },
  {
    table: "password_reset_tokens",
    insert: (hash: string, row: Case) =>
      api.db
        .insert(passwordResetTokens)
        .values({ tokenHash: hash, studentId, expiresAt: row.expiresAt, usedAt: row.endedAt }),
    remaining: async (prefix: string) =>
      (
        await api.db
          .select({ hash: passwordResetTokens.tokenHash })
          .from(passwordResetTokens)
          .where(like(passwordResetTokens.tokenHash, `${prefix}%`))
      ).map((r) => r.hash),
    purge: purgeSpentResetTokens,
  },
  {
    table: "contact_change_requests",
    insert: (hash: string, row: Case) =>
      api.db.insert(contactChangeRequests).values({
        tokenHash: hash,
        studentId,
        newEmail: `${hash}@example.com`,
        expiresAt: row.expiresAt,
        usedAt: row.endedAt,
      }),
    remaining: async (prefix: string) =>
      (
        await api.db
          .select({ hash: contactChangeRequests.tokenHash })
          .from(contactChangeRequests)
          .where(like(contactChangeRequests.tokenHash, `${prefix}%`))
      ).map((r) => r.hash),
    purge: purgeEndedContactChanges,
  },
  {
    table: "staff_password_tokens",
    insert: (hash: string, row: Case) =>
      api.db
        .insert(staffPasswordTokens)
        .values({ tokenHash: hash, staffId, expiresAt: row.expiresAt, usedAt: row.endedAt }),
    remaining: async (prefix: string) =>
      (
        await api.db
          .select({ hash: staffPasswordTokens.tokenHash })
          .from(staffPasswordTokens)
          .where(like(staffPasswordTokens.tokenHash, `${prefix}%`))
      ).map((r) => r.hash),
    purge: purgeSpentStaffPasswordTokens,
  },
];

describe.each(TABLES)("purging $table", ({ table, insert, remaining, purge }) => {
  it("deletes the rows that ended or expired more than a day ago and keeps every other", async () => {
    const prefix = `${table}-all-`;
    for (const row of CASES) await insert(`${prefix}${row.name}`, row);

    const deleted = await purge(api.db, NOW);

    expect(deleted).toBe(CASES.filter((row) => !row.kept).length);
    expect((await remaining(prefix)).sort()).toEqual(
      CASES.filter((row) => row.kept)
        .map((row) => `${prefix}${row.name}`)
        .sort(),
    );
  });

  it("deletes in batches until none is left, and no more batches than it is allowed", async () => {
    const prefix = `${table}-batches-`;
    const dead = CASES.find((row) => row.name === "expired-25h-ago")!;
    for (let n = 0; n < 5; n++) await insert(`${prefix}${n}`, dead);
    await insert(`${prefix}live`, CASES[0]!);

    expect(await purge(api.db, NOW, { size: 2, most: 1 })).toBe(2);
    expect(await remaining(prefix)).toHaveLength(4);
    expect(await purge(api.db, NOW, { size: 2, most: 10 })).toBe(3);
    expect(await remaining(prefix)).toEqual([`${prefix}live`]);
  });
});

describe("purging waiting_line_admissions", () => {
  it("forgets tickets exchanged more than a day ago, whose holders can no longer show them", async () => {
    const rows = [
      { ticket: 900_001, admittedAt: at(-2 * HOUR), kept: true },
      { ticket: 900_002, admittedAt: at(-23 * HOUR), kept: true },
      { ticket: 900_003, admittedAt: at(-25 * HOUR), kept: false },
    ];
    await api.db
      .insert(waitingLineAdmissions)
      .values(rows.map(({ ticket, admittedAt }) => ({ ticket, admittedAt })));

    expect(await purgeSpentLineAdmissions(api.db, NOW)).toBe(1);

    const left = await api.db
      .select({ ticket: waitingLineAdmissions.ticket })
      .from(waitingLineAdmissions)
      .where(gte(waitingLineAdmissions.ticket, 900_001));
    expect(left.map((row) => row.ticket).sort()).toEqual([900_001, 900_002]);
  });
});

describe("purging rate_limits", () => {
  it("deletes counters whose window began more than two days ago and keeps the rest", async () => {
    const rows = [
      { key: "purge:now", windowStartedAt: NOW, kept: true },
      { key: "purge:a-day-ago", windowStartedAt: at(-24 * HOUR), kept: true },
      { key: "purge:47h-ago", windowStartedAt: at(-47 * HOUR), kept: true },
      { key: "purge:49h-ago", windowStartedAt: at(-49 * HOUR), kept: false },
      { key: "purge:a-month-ago", windowStartedAt: at(-30 * 24 * HOUR), kept: false },
    ];
    await api.db
      .insert(rateLimits)
      .values(rows.map(({ key, windowStartedAt }) => ({ key, windowStartedAt, hits: 3 })));

    expect(await purgeStaleRateLimits(api.db, NOW)).toBe(2);

    const left = await api.db
      .select({ key: rateLimits.key })
      .from(rateLimits)
      .where(like(rateLimits.key, "purge:%"));
    expect(left.map((row) => row.key).sort()).toEqual(
      rows
        .filter((row) => row.kept)
        .map((row) => row.key)
        .sort(),
    );
  });

  it("cannot be outlived by a limit: a rule counting over more than a day is refused where it is made", () => {
    const DAY = 24 * HOUR;
    expect(() => createRateLimiter(api.db, { limit: 3, windowMs: DAY + 1 })).toThrow(/at most/);
    expect(() =>
      backoffRule({
        freeAttempts: 3,
        firstDelayMs: 1000,
        maxDelayMs: HOUR,
        forgetAfterMs: 2 * DAY,
      }),
    ).toThrow(/at most/);
    expect(() => createRateLimiter(api.db, { limit: 3, windowMs: DAY })).not.toThrow();
  });
});
