import { createHash, randomBytes } from "node:crypto";
import { and, asc, desc, eq, isNull, like, sql } from "drizzle-orm";
import { MAX_UNITS } from "../../common/courses/registration-status.ts";
import { hashPassword } from "../../server/auth/password.ts";
import type { Database } from "../../server/db/client.ts";
import {
  academicSessions,
  authSessions,
  courseMappings,
  courseOfferings,
  courseRegistrations,
  courseScores,
  courses,
  feeSchedule,
  hostelInvoices,
  hostelRooms,
  offeringLecturers,
  paymentEvents,
  payments,
  rateLimits,
  refunds,
  registrationApprovals,
  resultPublications,
  staff,
  students,
} from "../../server/db/schema.ts";
import { newPaymentReference } from "../../server/payments/reference.ts";
import { placesToStudy } from "../load/accounts.ts";
import {
  planRegistration,
  planScore,
  planSessionPayments,
  planSignIns,
  seededRandom,
  sessionsStudied,
  SHARES,
  type PlannedPayment,
  type PlannedSignIn,
} from "./history.ts";

/** The one password every college-size student has (nobody signs in as them but explain:hot). */
export const COLLEGE_SIZE_PASSWORD = "college-size";
// Their phones: apart from the demo's (0803…), the load tool's accounts (0917…) and the results
// bench's (0916…), so the tools' accounts and the demo student stay the ones that sign in.
const PHONE_PREFIX = "0918";
const PHONE_DIGITS = 7;
// Rows per INSERT: well under PostgreSQL's 65,535 bind parameters for the widest row here.
const ROWS_AT_ONCE = 2_000;
const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
// The demo's hostel fee (server/payments/seed.ts).
const HOSTEL_KOBO = 35_000 * 100;
// SESSION_ABSOLUTE_HOURS's default (server/env.ts): a sign-in lasts 12 hours at most.
const SESSION_HOURS = 12;

const SURNAMES = ["Okafor", "Adeyemi", "Bello", "Eze", "Ibrahim", "Okonkwo", "Yusuf", "Nwosu"];
const OTHERNAMES = ["Adaeze", "Tunde", "Hauwa", "Chinedu", "Funmilayo", "Musa", "Ngozi", "Emeka"];

export type CollegeSizeRows = {
  students: number;
  payments: number;
  paymentEvents: number;
  refunds: number;
  courseRegistrations: number;
  registrationApprovals: number;
  courseOfferings: number;
  courseScores: number;
  resultPublications: number;
  hostelInvoices: number;
  authSessions: number;
  rateLimits: number;
};

/**
 * Adds `count` students to a database the demo seed filled (sessions, programmes, catalogue, fees,
 * staff), spread over every programme and level where a student can pay and register, each with
 * their history since they entered (history.ts): school-fee payments and their events and refunds,
 * course registrations and advisers' approvals, a hostel invoice, the last day's sign-ins and the
 * sign-in counter they leave. Everything is dated before the run starts, so the tools' own checks
 * (the day's reconciliation, what the reconciler finds due) see none of it. Then ANALYZE, as
 * PostgreSQL's autovacuum would after a load this size.
 */
export async function addCollegeSize(
  db: Database,
  count: number,
  options: { progress?: (message: string) => void; now?: Date; seed?: number } = {},
): Promise<CollegeSizeRows> {
  const progress = options.progress ?? (() => {});
  const now = options.now ?? new Date();
  const context = await readCollege(db);
  const rows: CollegeSizeRows = {
    students: 0,
    payments: 0,
    paymentEvents: 0,
    refunds: 0,
    courseRegistrations: 0,
    registrationApprovals: 0,
    courseOfferings: 0,
    courseScores: 0,
    resultPublications: 0,
    hostelInvoices: 0,
    authSessions: 0,
    rateLimits: 0,
  };
  // A few chunks are sent at once: PostgreSQL writes one while the next is made here.
  const sending = new Sending();
  const write = <T>(table: Parameters<Database["insert"]>[0], key: keyof CollegeSizeRows) =>
    new Batch<T>((chunk) =>
      sending.send(async () => {
        await db.insert(table).values(chunk as never);
        rows[key] += chunk.length;
      }),
    );
  const events = write<typeof paymentEvents.$inferInsert>(paymentEvents, "paymentEvents");
  const refundRows = write<typeof refunds.$inferInsert>(refunds, "refunds");
  const registrations = write<typeof courseRegistrations.$inferInsert>(
    courseRegistrations,
    "courseRegistrations",
  );
  const approvals = write<typeof registrationApprovals.$inferInsert>(
    registrationApprovals,
    "registrationApprovals",
  );
  const scores = write<typeof courseScores.$inferInsert>(courseScores, "courseScores");
  const hostel = write<typeof hostelInvoices.$inferInsert>(hostelInvoices, "hostelInvoices");
  const signIns = write<typeof authSessions.$inferInsert>(authSessions, "authSessions");
  const counters = write<typeof rateLimits.$inferInsert>(rateLimits, "rateLimits");
  // A payment's events and refund name its id: written once its chunk is in.
  const paymentRows = new Batch<PendingPayment>(async (chunk) => {
    const inserted = await db
      .insert(payments)
      .values(chunk.map((pending) => pending.row))
      .returning({ id: payments.id, reference: payments.reference });
    const idOf = new Map(inserted.map((row) => [row.reference, row.id]));
    for (const pending of chunk) {
      const paymentId = idOf.get(pending.row.reference)!;
      for (const event of pending.events) await events.add({ ...event, paymentId });
      if (pending.refund) await refundRows.add({ ...pending.refund, paymentId });
    }
    rows.payments += chunk.length;
  });

  progress(`Writing ${count} college-size students…`);
  const made = await insertStudents(db, count, context);
  rows.students = made.length;
  const offeringOf = await publishPastResults(db, made, context, rows);
  progress(`Writing their payments, registrations, scores, hostel invoices and sign-ins…`);
  const seed = options.seed ?? 34;
  for (const [index, student] of made.entries()) {
    const random = seededRandom(seed * 1_000_003 + index);
    for (const step of sessionsStudied(context.sessionNames, context.current, student.level)) {
      const start = sessionStart(step.session);
      const planned = planSessionPayments(random, step.current);
      for (const [turn, payment] of planned.entries()) {
        await paymentRows.add(
          paymentOf(payment, { student, step, turn, start, now, context, random }),
        );
      }
      const registration = planRegistration(random, step.current);
      const chosen = context.coursesOf.get(`${student.programmeId}/${step.level}`) ?? [];
      for (const course of chosen) {
        if (!registration.semesters.includes(course.semester as 1 | 2)) continue;
        await registrations.add({
          studentId: student.id,
          courseId: course.id,
          session: step.session,
          level: step.level,
          semester: course.semester,
          createdAt: semesterDay(start, course.semester, 45, random),
        });
        // Every past semester's results were entered, approved and published.
        if (!step.current)
          await scores.add({
            offeringId: offeringOf.get(`${course.id}/${step.session}/${course.semester}`)!,
            studentId: student.id,
            ...planScore(random),
            enteredBy: context.lecturerId,
            updatedAt: semesterDay(start, course.semester, 110, random),
          });
      }
      for (const semester of registration.approved) {
        await approvals.add({
          studentId: student.id,
          session: step.session,
          semester,
          staffId: context.adviserId,
          approvedAt: semesterDay(start, semester, 70, random),
        });
      }
      if (random() < SHARES.hostel) {
        const generatedAt = new Date(start.getTime() + Math.floor(random() * 30) * DAY_MS);
        await hostel.add({
          studentId: student.id,
          roomTypeId: context.roomIds[Math.floor(random() * context.roomIds.length)]!,
          paymentRef: newPaymentReference(generatedAt),
          amountKobo: HOSTEL_KOBO,
          session: step.session,
          status: "success",
          generatedAt,
        });
      }
    }
    let latest: Date | undefined;
    for (const signIn of planSignIns(random)) {
      const session = signInOf(signIn, student.id, now, random);
      latest = latest && latest > session.createdAt! ? latest : session.createdAt!;
      await signIns.add(session);
    }
    // What a right password leaves behind (server/auth/sign-in-limits.ts): the account's counter,
    // taken back to nothing.
    await counters.add({ key: `login:phone:${student.phone}`, windowStartedAt: latest!, hits: 0 });
    if (index % 2_000 === 1_999) progress(`  ${index + 1} of ${count} students' histories`);
  }
  await paymentRows.flush();
  for (const batch of [
    events,
    refundRows,
    registrations,
    approvals,
    scores,
    hostel,
    signIns,
    counters,
  ])
    await batch.flush();
  await sending.done();
  progress("ANALYZE…");
  await db.execute(
    sql`analyze students, payments, payment_events, refunds, course_registrations, registration_approvals, course_offerings, course_scores, result_publications, hostel_invoices, auth_sessions, rate_limits`,
  );
  return rows;
}

/** Inserts under way together, at most MOST_AT_ONCE; the first failure fails the build. */
class Sending {
  private static readonly MOST_AT_ONCE = 3;
  private readonly underWay = new Set<Promise<void>>();
  private failure: unknown = null;
  async send(task: () => Promise<void>) {
    while (this.underWay.size >= Sending.MOST_AT_ONCE) await Promise.race(this.underWay);
    if (this.failure) throw this.failure;
    const promise: Promise<void> = task()
      .catch((error: unknown) => {
        this.failure ??= error;
      })
      .finally(() => this.underWay.delete(promise));
    this.underWay.add(promise);
  }
  async done() {
    await Promise.all(this.underWay);
    if (this.failure) throw this.failure;
  }
}

/** Rows gathered and inserted a chunk at a time. */
class Batch<T> {
  private rows: T[] = [];
  private readonly insert: (chunk: T[]) => Promise<void>;
  constructor(insert: (chunk: T[]) => Promise<void>) {
    this.insert = insert;
  }
  async add(row: T) {
    this.rows.push(row);
    if (this.rows.length >= ROWS_AT_ONCE) await this.flush();
  }
  async flush() {
    const chunk = this.rows;
    this.rows = [];
    if (chunk.length > 0) await this.insert(chunk);
  }
}

type College = Awaited<ReturnType<typeof readCollege>>;
type MadeStudent = { id: number; phone: string; programmeId: number; level: number };

/** What the demo seed made that the history refers to. */
async function readCollege(db: Database) {
  const sessionRows = await db
    .select({ name: academicSessions.name, isCurrent: academicSessions.isCurrent })
    .from(academicSessions)
    .orderBy(asc(academicSessions.name));
  const current = sessionRows.find((row) => row.isCurrent)?.name;
  if (!current) throw new Error("The database has no current session: was the demo seed loaded?");
  const places = await placesToStudy(db, current);
  if (places.length === 0) throw new Error(`No programme has courses and fees in ${current}.`);
  const fees = await db
    .select()
    .from(feeSchedule)
    .where(
      and(
        eq(feeSchedule.kind, "school_fee"),
        isNull(feeSchedule.replacedAt),
        isNull(feeSchedule.programmeId),
        isNull(feeSchedule.studyMode),
      ),
    );
  const feeOf = new Map(
    fees.map((fee) => [`${fee.session}/${fee.level}/${fee.paymentOption}`, fee]),
  );
  const mapped = await db
    .select({
      programmeId: courseMappings.programmeId,
      level: courseMappings.level,
      id: courses.id,
      unit: courses.unit,
      semester: courseMappings.semester,
    })
    .from(courseMappings)
    .innerJoin(courses, eq(courses.id, courseMappings.courseId))
    .orderBy(asc(courseMappings.semester), asc(courses.code));
  // What a student registers at a programme and level: its courses in order, within the cap.
  const coursesOf = new Map<string, typeof mapped>();
  for (const course of mapped) {
    const key = `${course.programmeId}/${course.level}`;
    const chosen = coursesOf.get(key) ?? [];
    const units = chosen.reduce((sum, taken) => sum + taken.unit, 0);
    if (units + course.unit <= MAX_UNITS) chosen.push(course);
    coursesOf.set(key, chosen);
  }
  const roomIds = (await db.select({ id: hostelRooms.id }).from(hostelRooms)).map((row) => row.id);
  const staffWith = async (role: string) =>
    (
      await db
        .select({ id: staff.id })
        .from(staff)
        .where(sql`${role} = any(${staff.roles})`)
        .orderBy(asc(staff.id))
        .limit(1)
    )[0]?.id;
  const [adviserId, bursarId, lecturerId, headId, examsId] = await Promise.all(
    ["adviser", "bursar", "lecturer", "hod", "exams"].map(staffWith),
  );
  if (!adviserId || !bursarId || !lecturerId || !headId || !examsId || roomIds.length === 0)
    throw new Error("The demo's staff and hostel rooms are missing: load the demo seed.");
  return {
    current,
    sessionNames: sessionRows.map((row) => row.name),
    places,
    feeOf,
    coursesOf,
    roomIds,
    adviserId,
    bursarId,
    lecturerId,
    headId,
    examsId,
  };
}

/**
 * Every past semester the students studied, with its results published as the demo's are
 * (server/results/seed.ts): an offering of each course they registered, approved by the head,
 * with the demo lecturer, and a publication for each programme. What the demo seed published
 * already is kept. Answers each offering's id by course, session and semester.
 */
async function publishPastResults(
  db: Database,
  made: MadeStudent[],
  context: College,
  rows: CollegeSizeRows,
) {
  const offerings = new Map<string, typeof courseOfferings.$inferInsert>();
  const publications = new Map<string, typeof resultPublications.$inferInsert>();
  const seen = new Set<string>();
  for (const student of made) {
    const group = `${student.programmeId}/${student.level}`;
    if (seen.has(group)) continue;
    seen.add(group);
    const place = context.places.find(
      (candidate) =>
        candidate.programmeId === student.programmeId && candidate.level === student.level,
    )!;
    for (const step of sessionsStudied(context.sessionNames, context.current, student.level)) {
      if (step.current) continue;
      const start = sessionStart(step.session);
      for (const course of context.coursesOf.get(`${student.programmeId}/${step.level}`) ?? []) {
        const approvedAt = semesterDay(start, course.semester, 120, () => 0);
        offerings.set(`${course.id}/${step.session}/${course.semester}`, {
          courseId: course.id,
          session: step.session,
          semester: course.semester,
          departmentId: place.departmentId,
          status: "approved",
          submittedAt: semesterDay(start, course.semester, 110, () => 0),
          submittedBy: context.lecturerId,
          approvedAt,
          approvedBy: context.headId,
        });
        publications.set(`${student.programmeId}/${step.session}/${course.semester}`, {
          programmeId: student.programmeId,
          session: step.session,
          semester: course.semester,
          boardMeetingOn: semesterDay(start, course.semester, 130, () => 0)
            .toISOString()
            .slice(0, 10),
          minuteReference: `AB/${step.session.slice(0, 4)}/${course.semester}`,
          publishedBy: context.examsId,
          publishedAt: semesterDay(start, course.semester, 131, () => 0),
        });
      }
    }
  }
  // Only students at 100 level: no past semester to publish.
  if (offerings.size === 0) return new Map<string, number>();
  const inserted = await db
    .insert(courseOfferings)
    .values([...offerings.values()])
    .onConflictDoNothing()
    .returning({ id: courseOfferings.id });
  rows.courseOfferings = inserted.length;
  if (inserted.length > 0)
    await db
      .insert(offeringLecturers)
      .values(
        inserted.map((offering) => ({ offeringId: offering.id, staffId: context.lecturerId })),
      )
      .onConflictDoNothing();
  const published = await db
    .insert(resultPublications)
    .values([...publications.values()])
    .onConflictDoNothing()
    .returning({ id: resultPublications.id });
  rows.resultPublications = published.length;
  const all = await db
    .select({
      id: courseOfferings.id,
      courseId: courseOfferings.courseId,
      session: courseOfferings.session,
      semester: courseOfferings.semester,
    })
    .from(courseOfferings);
  return new Map(all.map((row) => [`${row.courseId}/${row.session}/${row.semester}`, row.id]));
}

async function insertStudents(db: Database, count: number, context: College) {
  const [highest] = await db
    .select({ phone: students.phone })
    .from(students)
    .where(like(students.phone, `${PHONE_PREFIX}%`))
    .orderBy(desc(students.phone))
    .limit(1);
  const first = highest ? Number(highest.phone.slice(PHONE_PREFIX.length)) + 1 : 1;
  if (first + count > 10 ** PHONE_DIGITS) throw new Error(`No room for ${count} more phones.`);
  // One hash at the portal's own cost for every student, as the load tool's accounts have it:
  // 20,000 hashes would take most of an hour, and the portal checks it in full all the same.
  const passwordHash = await hashPassword(COLLEGE_SIZE_PASSWORD);
  const run = randomBytes(3).toString("hex");
  const made: MadeStudent[] = [];
  const pending = Array.from({ length: count }, (_, index) => {
    const place = context.places[index % context.places.length]!;
    const number = first + index;
    const entered = sessionsStudied(context.sessionNames, context.current, place.level)[0]!.session;
    return {
      phone: `${PHONE_PREFIX}${String(number).padStart(PHONE_DIGITS, "0")}`,
      email: `college-${run}-${number}@example.com`,
      surname: SURNAMES[index % SURNAMES.length]!,
      othername: `${OTHERNAMES[Math.floor(index / SURNAMES.length) % OTHERNAMES.length]} ${number}`,
      applicationNo: `APP/COLLEGE/${run}/${number}`,
      matricNo: `CCE/${entered.slice(0, 4)}/COL/${run}/${number}`,
      departmentId: place.departmentId,
      programmeId: place.programmeId,
      level: place.level,
      entrySession: entered,
      entryMode: "UTME",
      studyMode: "Full Time",
      passwordHash,
    } satisfies typeof students.$inferInsert;
  });
  for (let start = 0; start < pending.length; start += ROWS_AT_ONCE) {
    made.push(
      ...(await db
        .insert(students)
        .values(pending.slice(start, start + ROWS_AT_ONCE))
        .returning({
          id: students.id,
          phone: students.phone,
          programmeId: students.programmeId,
          level: students.level,
        })),
    );
  }
  return made;
}

type PendingPayment = {
  row: typeof payments.$inferInsert & { reference: string };
  events: Omit<typeof paymentEvents.$inferInsert, "paymentId">[];
  refund?: Omit<typeof refunds.$inferInsert, "paymentId">;
};

/** 1 October of the session's first year: when its fees open. */
function sessionStart(session: string) {
  return new Date(Date.UTC(Number(session.slice(0, 4)), 9, 1, 8));
}

/** A day some weeks into a semester (the second starts in March). */
function semesterDay(start: Date, semester: number, days: number, random: () => number) {
  const from = semester === 1 ? start.getTime() : Date.UTC(start.getUTCFullYear() + 1, 2, 1, 8);
  return new Date(from + (days + Math.floor(random() * 20)) * DAY_MS);
}

function paymentOf(
  payment: PlannedPayment,
  at: {
    student: MadeStudent;
    step: { session: string; level: number };
    turn: number;
    start: Date;
    now: Date;
    context: College;
    random: () => number;
  },
): PendingPayment {
  const { student, step, context, random } = at;
  const fee = context.feeOf.get(`${step.session}/${step.level}/${payment.option}`);
  if (!fee) throw new Error(`No ${payment.option} fee for ${step.level} level in ${step.session}.`);
  // A payment still unpaid at a bank is weeks old, and the reconciler asked about it just now:
  // none is due for another check while a run lasts (server/payments/reconciler.ts).
  const generatedAt =
    payment.status === "pending"
      ? new Date(at.now.getTime() - (10 + Math.floor(random() * 50)) * DAY_MS)
      : new Date(at.start.getTime() + Math.floor(random() * 60) * DAY_MS + at.turn * 7 * DAY_MS);
  const later = (ms: number) => new Date(generatedAt.getTime() + ms);
  const paid = payment.status === "success" || payment.status === "refunded";
  const paidAt = paid ? later(3 * 60_000) : null;
  const remita = payment.gateway === "remita";
  const row: PendingPayment["row"] = {
    reference: newPaymentReference(generatedAt),
    studentId: student.id,
    kind: "school_fee",
    paymentOption: payment.option,
    level: step.level,
    session: step.session,
    feeId: fee.id,
    amountKobo: fee.amountKobo,
    status: payment.status,
    gateway: payment.gateway,
    generatedAt,
    paidAt,
    channel: paid ? (remita ? "bank" : "card") : null,
    gatewayResponse: {
      success: "Successful",
      refunded: "Successful",
      abandoned: "Abandoned",
      failed: "Declined",
      pending: null,
    }[payment.status],
    lastCheckedAt:
      payment.status === "pending"
        ? at.now
        : payment.status === "abandoned"
          ? later(2 * DAY_MS)
          : paidAt,
    gatewayReference: remita ? rrr(random) : null,
    paidAmountKobo: paid ? fee.amountKobo : null,
    paidCurrency: paid ? "NGN" : null,
  };
  const settledAt = later(5 * DAY_MS);
  const requestedAt = later(3 * DAY_MS);
  const detail = {
    initialised: {
      amount_kobo: fee.amountKobo,
      option: payment.option,
      level: step.level,
      session: step.session,
    },
    "webhook-received": { source: "webhook", status: "success", amount_kobo: fee.amountKobo },
    credited: { source: "webhook" },
    duplicate: { note: "Paid a second time for the same fee" },
    abandoned: { note: "Not paid within two days" },
    "verify-answer": {
      source: "verify",
      status: payment.status === "pending" ? "pending" : "failed",
    },
    failed: { note: "Declined" },
    "refund-requested": { amount_kobo: fee.amountKobo },
    "refund-processed": { amount_kobo: fee.amountKobo, currency: "NGN" },
  } as Record<string, Record<string, unknown>>;
  const when = {
    initialised: generatedAt,
    "verify-answer": later(60_000),
    failed: later(60_000),
    abandoned: later(2 * DAY_MS),
    "refund-requested": requestedAt,
    "refund-processed": settledAt,
  } as Record<string, Date>;
  return {
    row,
    events: payment.events.map((kind) => ({
      kind,
      at: when[kind] ?? paidAt ?? generatedAt,
      detail: detail[kind] ?? {},
    })),
    refund:
      payment.status === "refunded"
        ? {
            amountKobo: fee.amountKobo,
            currency: "NGN",
            status: "processed",
            reason: "Paid twice for the same fee",
            paymentStatusBefore: "duplicate",
            paystackRefundId: Math.floor(random() * 1e9),
            requestedBy: context.bursarId,
            requestedAt,
            settledAt,
          }
        : undefined,
  };
}

/** A twelve-digit RRR as Remita (and its sandbox) issue them. */
const rrr = (random: () => number) =>
  `${1 + Math.floor(random() * 9)}${String(Math.floor(random() * 1e11)).padStart(11, "0")}`;

/** One of the last day's sign-ins; those ended are younger than the day the clean-up keeps them. */
function signInOf(
  how: PlannedSignIn,
  studentId: number,
  now: Date,
  random: () => number,
): typeof authSessions.$inferInsert {
  const hoursAgo =
    how === "open" ? random() * 2 : how === "signed-out" ? 2 + random() * 9 : 12 + random() * 6;
  const createdAt = new Date(now.getTime() - hoursAgo * HOUR_MS);
  const lastSeenAt = new Date(createdAt.getTime() + Math.min(hoursAgo, 0.5) * HOUR_MS);
  return {
    tokenHash: createHash("sha256").update(randomBytes(32)).digest("hex"),
    studentId,
    createdAt,
    lastSeenAt,
    expiresAt: new Date(createdAt.getTime() + SESSION_HOURS * HOUR_MS),
    revokedAt: how === "signed-out" ? lastSeenAt : null,
  };
}

/** "20,000 college-size students with 60,000 payments, …": what a report says was added. */
export function describeCollegeSize(rows: CollegeSizeRows): string {
  const n = (value: number) => value.toLocaleString("en");
  return (
    `${n(rows.students)} college-size students with their history (${n(rows.payments)} payments, ` +
    `${n(rows.paymentEvents)} payment events, ${n(rows.refunds)} refunds, ` +
    `${n(rows.courseRegistrations)} course registrations, ${n(rows.registrationApprovals)} approvals, ` +
    `${n(rows.courseScores)} published scores in ${n(rows.courseOfferings)} course offerings, ` +
    `${n(rows.hostelInvoices)} hostel invoices, ${n(rows.authSessions)} sign-in sessions)`
  );
}
