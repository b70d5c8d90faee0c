import { and, count, eq, like, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../../server/db/client.ts";
import { openTestDatabase } from "../../server/testing/test-database.test-kit.ts";
import { seedDemoData } from "../../server/db/seed.ts";
import {
  authSessions,
  courseRegistrations,
  courseScores,
  payments,
  refunds,
  registrationApprovals,
  students,
} from "../../server/db/schema.ts";
import { databasePhotoBackend } from "../../server/uploads/database-photos.ts";
import { createPhotoStorage } from "../../server/uploads/photo-storage.ts";
import { createStudentAccounts } from "../load/accounts.ts";
import { addCollegeSize, type CollegeSizeRows } from "./college-size.ts";

const SIZE = 200;
const NOW = new Date("2026-11-28T10:00:00Z");

// The demo college with 200 college-size students and then the load tool's accounts, as
// `--college-size 200` leaves it before the portal starts. On PostgreSQL only, where the tools
// build it (explain:hot needs it), and where it takes a few seconds instead of PGlite's ten.
const onPostgres = process.env.TEST_DATABASE === "postgres";
let database: DatabaseHandle;
let rows: CollegeSizeRows;
beforeAll(async () => {
  if (!onPostgres) return;
  database = await openTestDatabase();
  await seedDemoData(database.db, {
    photos: createPhotoStorage(databasePhotoBackend(database.db)),
    nodeEnv: "development",
  });
  rows = await addCollegeSize(database.db, SIZE, { now: NOW });
  await createStudentAccounts(database.db, 3);
}, 60_000);
afterAll(() => database?.close());

describe.runIf(onPostgres)("addCollegeSize", () => {
  it("adds the students with their history, and counts what it wrote", async () => {
    const db = database.db;
    expect(rows.students).toBe(SIZE);
    expect(
      Number(
        (await db.select({ n: count() }).from(students).where(like(students.phone, "0918%")))[0]!.n,
      ),
    ).toBe(SIZE);
    // A third of the students are at each of 100, 200 and 300 level: two sessions on average,
    // each with at least one payment in a past session.
    expect(rows.payments).toBeGreaterThan(SIZE);
    expect(rows.paymentEvents).toBeGreaterThan(2 * rows.payments);
    expect(rows.courseScores).toBeGreaterThan(0);
    expect(rows.authSessions).toBeGreaterThanOrEqual(SIZE);
  });

  it("settles every past session: each student's fee for it credited in full", async () => {
    const unpaid = await database.db.execute<{ id: number }>(sql`
      select s.id from students s
      join academic_sessions a on a.name >= s.entry_session and not a.is_current
      where s.phone like '0918%'
        and not exists (select 1 from payments p where p.student_id = s.id and p.session = a.name
          and p.status = 'success' and p.payment_option in ('full', 'second_installment'))`);
    expect(unpaid.rows).toEqual([]);
  });

  it("writes refunds only for payments refunded, and approvals only where courses are registered", async () => {
    const db = database.db;
    const refundedWithout = await db
      .select({ id: payments.id })
      .from(payments)
      .leftJoin(refunds, eq(refunds.paymentId, payments.id))
      .where(and(eq(payments.status, "refunded"), sql`${refunds.id} is null`));
    expect(refundedWithout).toEqual([]);
    const approvedEmpty = await db.execute(sql`
      select 1 from ${registrationApprovals} a where not exists (
        select 1 from ${courseRegistrations} r where r.student_id = a.student_id
          and r.session = a.session and r.semester = a.semester)`);
    expect(approvedEmpty.rows).toEqual([]);
    const scoredUnregistered = await db.execute(sql`
      select 1 from ${courseScores} sc join course_offerings o on o.id = sc.offering_id
      where not exists (select 1 from ${courseRegistrations} r where r.student_id = sc.student_id
        and r.course_id = o.course_id and r.session = o.session)`);
    expect(scoredUnregistered.rows).toEqual([]);
  });

  it("dates every sign-in within the last day, so the clean-up job deletes none during a run", async () => {
    const [oldest] = await database.db
      .select({ at: sql<string>`min(${authSessions.createdAt})` })
      .from(authSessions);
    expect(NOW.getTime() - new Date(oldest!.at).getTime()).toBeLessThan(24 * 3_600_000);
  });

  it("leaves the demo student and the tools' accounts the ones that sign in", async () => {
    const signedIn = await database.db.execute<{ phone: string }>(sql`
      select distinct s.phone from auth_sessions a join students s on s.id = a.student_id
      where s.phone not like '0918%'`);
    expect(signedIn.rows).toEqual([]);
    const demo = await database.db
      .select({ phone: students.phone })
      .from(students)
      .where(eq(students.phone, "08030000001"));
    expect(demo).toHaveLength(1);
  });
});
