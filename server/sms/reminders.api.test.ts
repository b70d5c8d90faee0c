import { and, eq, isNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiHarness, type ApiHarness } from "../testing/api-harness.test-kit.ts";
import { createStaff, staffSignIn } from "../staff/staff.test-kit.ts";
import {
  auditLog,
  courseRegistrations,
  courses,
  payments,
  smsMessages,
  smsPreferences,
  smsReminders,
} from "../db/schema.ts";
import type { StaffRole } from "../../common/staff/staff.ts";
import { scheduledWork } from "../jobs/scheduled-work.ts";
import { readSmsOutbox } from "./outbox.ts";
import { sendDueReminders } from "./reminder-sending.ts";

// The bursary and the registry schedule deadline reminders; the hourly run texts the students
// who still owe, 3 days and 1 day before, in waking hours, one a day, within the daily cap
// (decision 201). The harness's clock reads 15 January 2025, 10:00 in Lagos.

type Student = Awaited<ReturnType<ApiHarness["createStudent"]>>;
const international = (student: Student) => `+234${student.phone.slice(1)}`;

async function harnessKit(api: ApiHarness) {
  const tokens = new Map<string, string>();
  async function as(roles: StaffRole[]) {
    const key = roles.join(",");
    if (!tokens.has(key))
      tokens.set(key, await staffSignIn(api, await createStaff(api, { roles, totp: true })));
    return tokens.get(key)!;
  }
  const schedule = async (roles: StaffRole[], json: unknown) =>
    api.request("/staff/sms/reminders", { method: "POST", token: await as(roles), json });
  const cancel = async (roles: StaffRole[], id: number | string) =>
    api.request(`/staff/sms/reminders/${id}/cancel`, { method: "POST", token: await as(roles) });
  async function paid(student: Student) {
    await api.db.insert(payments).values({
      reference: `REMIND-${student.id}`,
      studentId: student.id,
      paymentOption: "full",
      level: student.level,
      session: "2024/2025",
      amountKobo: 100,
      status: "success",
    });
  }
  async function registered(student: Student) {
    const [course] = await api.db
      .insert(courses)
      .values({ code: `REM ${student.id}`, title: "Reminder test course", unit: 2, semester: 1 })
      .returning();
    await api.db.insert(courseRegistrations).values({
      studentId: student.id,
      courseId: course!.id,
      session: "2024/2025",
      level: student.level,
      semester: 1,
    });
  }
  /** Runs the reminders as the hourly job would at `iso`, then delivers what it queued. */
  async function runAt(iso: string, smsDailyCap?: number) {
    const count = await sendDueReminders({ ...api.deps, now: () => new Date(iso), smsDailyCap });
    await api.deliverSms();
    return count;
  }
  return { as, schedule, cancel, paid, registered, runAt };
}

describe("scheduling a deadline reminder", () => {
  let api: ApiHarness;
  let kit: Awaited<ReturnType<typeof harnessKit>>;
  beforeAll(async () => {
    api = await createApiHarness();
    kit = await harnessKit(api);
  });
  afterAll(() => api.close());

  it("schedules a fee reminder for the bursary, lists it and audits it", async () => {
    const answer = await kit.schedule(["bursar"], { kind: "school_fee", deadline: "2025-01-31" });
    expect(answer.status).toBe(200);
    expect((await answer.json()).message).toBe(
      "Reminder scheduled for 2024/2025: texts go on 28 January 2025 and 30 January 2025, between 7 am and 9 pm.",
    );
    const list = await api.request("/staff/sms/reminders", { token: await kit.as(["registry"]) });
    const { data } = await list.json();
    expect(data.today).toBe("2025-01-15");
    expect(data.reminders).toEqual([
      expect.objectContaining({
        kind: "school_fee",
        session: "2024/2025",
        deadline: "2025-01-31",
        sends_on: ["2025-01-28", "2025-01-30"],
        cancelled_at: null,
        capped_on: null,
      }),
    ]);
    const audits = await api.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, "sms_reminder.schedule"));
    expect(audits).toHaveLength(1);
  });

  it("lets the registry schedule registration reminders and administrators both", async () => {
    const registry = await kit.schedule(["registry"], {
      kind: "registration",
      deadline: "2025-01-20",
    });
    expect(registry.status).toBe(200);
    const admin = await kit.schedule(["admin"], { kind: "school_fee", deadline: "2025-02-28" });
    expect(admin.status).toBe(200);
  });

  it("says which text still comes when the deadline is near", async () => {
    const answer = await kit.schedule(["bursar"], { kind: "school_fee", deadline: "2025-01-16" });
    expect((await answer.json()).message).toBe(
      "Reminder scheduled for 2024/2025: texts go on 15 January 2025, between 7 am and 9 pm.",
    );
  });

  it.each([
    [
      "a deadline in the past",
      { kind: "school_fee", deadline: "2025-01-14" },
      "deadline",
      "Choose a deadline after today: the texts go 3 days and 1 day before it.",
    ],
    [
      "today's deadline",
      { kind: "school_fee", deadline: "2025-01-15" },
      "deadline",
      "Choose a deadline after today: the texts go 3 days and 1 day before it.",
    ],
    [
      "a deadline more than a year away",
      { kind: "school_fee", deadline: "2026-02-01" },
      "deadline",
      "Choose a deadline within a year of today.",
    ],
    [
      "a date not written YYYY-MM-DD",
      { kind: "school_fee", deadline: "31/01/2025" },
      "deadline",
      "Write the deadline as a date, YYYY-MM-DD.",
    ],
    [
      "no deadline",
      { kind: "school_fee" },
      "deadline",
      "Write the deadline as a date, YYYY-MM-DD.",
    ],
    [
      "an unknown kind",
      { kind: "hostel_fee", deadline: "2025-01-31" },
      "kind",
      'Choose what the reminder is for: "school_fee" or "registration".',
    ],
  ])("refuses %s with a clear error and schedules nothing", async (_, json, field, message) => {
    const before = await api.db.select().from(smsReminders);
    const answer = await kit.schedule(["admin"], json);
    expect(answer.status).toBe(400);
    const body = await answer.json();
    expect(body.status).toBe("error");
    expect(body.error.fields[field]).toBe(message);
    expect(await api.db.select().from(smsReminders)).toHaveLength(before.length);
  });

  it("refuses the same deadline twice", async () => {
    const answer = await kit.schedule(["bursar"], { kind: "school_fee", deadline: "2025-01-31" });
    expect(answer.status).toBe(409);
    expect((await answer.json()).message).toBe(
      "A reminder for this deadline is already scheduled (School fee not paid, 31 January 2025).",
    );
  });

  it("schedules a deadline asked for twice at once only once", async () => {
    const json = { kind: "registration", deadline: "2025-02-14" };
    const answers = await Promise.all([
      kit.schedule(["registry"], json),
      kit.schedule(["admin"], json),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    const live = await api.db
      .select()
      .from(smsReminders)
      .where(and(eq(smsReminders.deadline, "2025-02-14"), isNull(smsReminders.cancelledAt)));
    expect(live).toHaveLength(1);
  });

  it.each([
    [
      ["bursar"],
      "registration",
      "Registration reminders are the registry's and administrators' to schedule.",
    ],
    [
      ["registry"],
      "school_fee",
      "School fee reminders are the bursary's and administrators' to schedule.",
    ],
  ] as [StaffRole[], string, string][])(
    "refuses %j a %s reminder",
    async (roles, kind, message) => {
      const answer = await kit.schedule(roles, { kind, deadline: "2025-03-01" });
      expect(answer.status).toBe(403);
      expect((await answer.json()).message).toBe(message);
    },
  );

  it.each([[["adviser"]], [["support"]], [["exams"]]] as StaffRole[][][])(
    "is not for %j at all",
    async (roles) => {
      expect(
        (await kit.schedule(roles, { kind: "school_fee", deadline: "2025-03-01" })).status,
      ).toBe(403);
      const list = await api.request("/staff/sms/reminders", { token: await kit.as(roles) });
      expect(list.status).toBe(403);
    },
  );

  it("cancels a reminder once, for whose work it is, and audits it", async () => {
    const [fee] = await api.db
      .select()
      .from(smsReminders)
      .where(eq(smsReminders.deadline, "2025-01-31"));
    const wrongRole = await kit.cancel(["registry"], fee!.id);
    expect(wrongRole.status).toBe(403);
    const cancelled = await kit.cancel(["bursar"], fee!.id);
    expect(cancelled.status).toBe(200);
    expect((await cancelled.json()).message).toBe(
      "Reminder cancelled: its texts not yet sent will not go.",
    );
    const again = await kit.cancel(["bursar"], fee!.id);
    expect(again.status).toBe(409);
    expect((await again.json()).message).toBe("That reminder is cancelled already.");
    expect(
      await api.db.select().from(auditLog).where(eq(auditLog.action, "sms_reminder.cancel")),
    ).toHaveLength(1);
    // Cancelled, the deadline may be scheduled again.
    expect(
      (await kit.schedule(["bursar"], { kind: "school_fee", deadline: "2025-01-31" })).status,
    ).toBe(200);
  });

  it.each([
    ["an unknown reminder", 999_999, 404, "There is no such reminder. Choose one from the list."],
    ["a malformed id", "first", 400, "Choose a reminder from the list."],
  ])("refuses to cancel %s", async (_, id, status, message) => {
    const answer = await kit.cancel(["admin"], id);
    expect(answer.status).toBe(status);
    expect((await answer.json()).message).toBe(message);
  });
});

describe("the hourly reminder run", () => {
  let api: ApiHarness;
  let kit: Awaited<ReturnType<typeof harnessKit>>;
  let owesBoth: Student,
    paidOnly: Student,
    registeredOnly: Student,
    saidNo: Student,
    stopped: Student;
  beforeAll(async () => {
    api = await createApiHarness();
    kit = await harnessKit(api);
    [owesBoth, paidOnly, registeredOnly, saidNo, stopped] = (await Promise.all(
      Array.from({ length: 5 }, () => api.createStudent()),
    )) as [Student, Student, Student, Student, Student];
    await kit.paid(paidOnly);
    await kit.registered(registeredOnly);
    await api.db.insert(smsPreferences).values([
      { studentId: saidNo.id, deadlineReminders: false },
      { studentId: stopped.id, stoppedAt: new Date("2025-01-10T12:00:00Z") },
    ]);
    for (const [roles, kind, deadline] of [
      [["registry"], "registration", "2025-01-16"],
      [["bursar"], "school_fee", "2025-01-17"],
      [["bursar"], "school_fee", "2025-01-18"],
    ] as [StaffRole[], string, string][])
      expect((await kit.schedule(roles, { kind, deadline })).status).toBe(200);
  });
  afterAll(() => api.close());

  const textsTo = async (student: Student) =>
    (await readSmsOutbox(api.smsOutboxDir)).filter((sms) => sms.to === international(student));

  it("sends nothing at night in Lagos, even on a reminder's day", async () => {
    expect(await kit.runAt("2025-01-15T05:30:00Z")).toBe(0); // 06:30 in Lagos
    expect(await kit.runAt("2025-01-14T21:00:00Z")).toBe(0); // 22:00 on the 14th
    expect(await kit.runAt("2025-01-15T20:00:00Z")).toBe(0); // 21:00 on the 15th
    expect(await readSmsOutbox(api.smsOutboxDir)).toEqual([]);
  });

  it("texts 3 days and 1 day before, one a day per student, only those who still owe", async () => {
    // The 15th: registration's deadline is tomorrow, the fee's of the 18th in 3 days (the 17th's
    // is 2 days off: nothing).
    expect(await kit.runAt("2025-01-15T09:00:00Z")).toBe(3);
    expect((await textsTo(owesBoth)).map((sms) => sms.text)).toEqual([
      "Reminder: course registration for 2024/2025 closes on 16 January 2025, tomorrow. Register your courses on the portal. Student Portal",
    ]);
    expect((await textsTo(paidOnly)).map((sms) => sms.text)).toEqual([
      expect.stringContaining("course registration for 2024/2025 closes on 16 January 2025"),
    ]);
    expect((await textsTo(registeredOnly)).map((sms) => sms.text)).toEqual([
      "Reminder: the 2024/2025 school fee is due by 18 January 2025, in 3 days. Pay it on the portal before then. Student Portal",
    ]);
    expect(await textsTo(saidNo)).toEqual([]);
    expect(await textsTo(stopped)).toEqual([]);

    // Run again later in the day: nothing twice.
    expect(await kit.runAt("2025-01-15T15:00:00Z")).toBe(0);
    const keys = (await api.db.select().from(smsMessages)).map((row) => row.idempotencyKey);
    expect(keys.sort()).toEqual(
      [owesBoth, paidOnly, registeredOnly].map((s) => `reminder:${s.id}:2025-01-15`).sort(),
    );
  });

  it("sends the next day's 1-day reminder, and none for a cancelled one", async () => {
    // The 16th: the fee of the 17th is due tomorrow (the 18th's is 2 days off).
    expect(await kit.runAt("2025-01-16T08:00:00Z")).toBe(2);
    expect((await textsTo(owesBoth)).map((sms) => sms.text)).toContain(
      "Reminder: the 2024/2025 school fee is due by 17 January 2025, tomorrow. Pay it on the portal before then. Student Portal",
    );
    expect(await textsTo(paidOnly)).toHaveLength(1);

    const [last] = await api.db
      .select()
      .from(smsReminders)
      .where(eq(smsReminders.deadline, "2025-01-18"));
    expect((await kit.cancel(["admin"], last!.id)).status).toBe(200);
    // The 17th would have been the 18th's 1-day reminder.
    expect(await kit.runAt("2025-01-17T08:00:00Z")).toBe(0);
  });
});

describe("the daily cap", () => {
  let api: ApiHarness;
  let kit: Awaited<ReturnType<typeof harnessKit>>;
  let people: Student[];
  beforeAll(async () => {
    api = await createApiHarness({ smsDailyCap: 2 });
    kit = await harnessKit(api);
    people = await Promise.all(Array.from({ length: 3 }, () => api.createStudent()));
    expect(
      (await kit.schedule(["bursar"], { kind: "school_fee", deadline: "2025-01-18" })).status,
    ).toBe(200);
  });
  afterAll(() => api.close());

  it("stops reminders at the cap, says so once, and still sends codes", async () => {
    const run = scheduledWork(api.deps)["send-deadline-reminders"];
    expect(await run()).toBe(2);
    expect(await run()).toBe(0);
    await api.deliverSms();
    expect(await readSmsOutbox(api.smsOutboxDir)).toHaveLength(2);
    const [reminder] = await api.db.select().from(smsReminders);
    expect(reminder!.cappedOn).toBe("2025-01-15");
    expect(api.logger.lines.filter((line) => line.includes("SMS daily cap reached"))).toHaveLength(
      1,
    );

    // The third student's password code goes all the same.
    const texted = new Set((await readSmsOutbox(api.smsOutboxDir)).map((sms) => sms.to));
    const unreminded = people.find((person) => !texted.has(international(person)))!;
    await api.request("/password/request-reset-code", {
      method: "POST",
      json: { phone: unreminded.phone },
    });
    await expect
      .poll(async () => {
        await api.deliverSms();
        return (await readSmsOutbox(api.smsOutboxDir)).filter(
          (sms) => sms.to === international(unreminded),
        ).length;
      })
      .toBe(1);

    const usage = await api.request("/staff/sms/daily", { token: await kit.as(["bursar"]) });
    expect((await usage.json()).data.cap).toEqual({ limit: 2, queued_today: 3 });
  });

  it("shows no cap where none is set", async () => {
    const plain = await createApiHarness();
    try {
      const token = await staffSignIn(
        plain,
        await createStaff(plain, { roles: ["bursar"], totp: true }),
      );
      const usage = await plain.request("/staff/sms/daily", { token });
      expect((await usage.json()).data.cap).toBeNull();
    } finally {
      await plain.close();
    }
  });
});
