import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { academicSessions, authSessions, payments, students } from "../db/schema.ts";
import { createApiHarness, type ApiHarness } from "../testing/api-harness.test-kit.ts";

// A window long enough that nothing below outlives it by accident, except where a test waits.
const CACHE_MS = 400;

let api: ApiHarness;

beforeAll(async () => {
  api = await createApiHarness({
    sessions: { idleMinutes: 120, absoluteHours: 12, cacheMs: CACHE_MS },
  });
});
afterAll(() => api.close());

const me = (token: string) => api.request("/student/me", { token });
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("with sessions cached for a moment in each process", () => {
  it("a sign-out ends the session at once", async () => {
    const student = await api.createStudent({ phone: "08035550001", password: "demo1234" });
    const token = await api.signIn(student.phone);
    expect((await me(token)).status).toBe(200);
    expect((await api.request("/student/logout", { method: "POST", token })).status).toBe(200);
    expect((await me(token)).status).toBe(401);
  });

  it("a change the student sends shows on their very next read", async () => {
    const student = await api.createStudent({
      phone: "08035550002",
      password: "demo1234",
      religion: "Christianity",
    });
    const token = await api.signIn(student.phone);
    expect((await (await me(token)).json()).data.religion).toBe("Christianity");
    const form = new FormData();
    form.append("religion", "Islam");
    const update = await api.request(`/student/biodata-update/${student.id}`, {
      method: "PATCH",
      body: form,
      token,
    });
    expect(update.status).toBe(200);
    expect((await (await me(token)).json()).data.religion).toBe("Islam");
  });

  it("signing in primes the cache: the first page after it reads no session, and its record is whole", async () => {
    const student = await api.createStudent({ phone: "08035550009", password: "demo1234" });
    const signIn = await api.request("/student/uniben/login", {
      method: "POST",
      json: { username: student.phone, password: "demo1234" },
    });
    const { access: token, student: answered } = (await signIn.json()).data.tokens;
    // Revoked behind this process's back at once: only an entry the sign-in itself left can
    // still answer for the token, so a 200 here means the first read cost no session query.
    await api.db
      .update(authSessions)
      .set({ revokedAt: api.clock.now() })
      .where(eq(authSessions.studentId, student.id));
    const first = await me(token);
    expect(first.status).toBe(200);
    const record = (await first.json()).data;
    // The placement came with it (the programme is read with the row, not from the students table).
    expect(record).toEqual(answered);
    expect(record.programme).not.toBe("");
    await wait(CACHE_MS + 100);
    expect((await me(token)).status).toBe(401);
  });

  it("a session ended elsewhere (another process) is refused once the window has passed", async () => {
    const student = await api.createStudent({ phone: "08035550003", password: "demo1234" });
    const token = await api.signIn(student.phone);
    expect((await me(token)).status).toBe(200);
    // As another instance's sign-out would: the row changes, this process is not told.
    await api.db
      .update(authSessions)
      .set({ revokedAt: api.clock.now() })
      .where(eq(authSessions.studentId, student.id));
    expect((await me(token)).status).toBe(200);
    await wait(CACHE_MS + 100);
    expect((await me(token)).status).toBe(401);
  });

  it("a record changed by the registry shows once the window has passed", async () => {
    const student = await api.createStudent({
      phone: "08035550004",
      password: "demo1234",
      level: 100,
    });
    const token = await api.signIn(student.phone);
    expect((await (await me(token)).json()).data.level).toBe(100);
    await api.db.update(students).set({ level: 200 }).where(eq(students.id, student.id));
    await wait(CACHE_MS + 100);
    expect((await (await me(token)).json()).data.level).toBe(200);
  });

  it("a payment credited elsewhere shows on the payment page at once and in the record once the window has passed", async () => {
    const student = await api.createStudent({ phone: "08035550006", password: "demo1234" });
    const token = await api.signIn(student.phone);
    const feeOnRecord = async () => (await (await me(token)).json()).data.payment_complete;
    const feeOnPaymentPage = async () =>
      (await (await api.request(`/student/payment-info/${student.id}`, { token })).json()).data
        .school_fees_payment.payment_complete;
    const unpaid = await feeOnRecord();
    expect(await feeOnPaymentPage()).toBe(unpaid);

    // As another instance's webhook would: the payment is credited, this process is not told.
    const [current] = await api.db
      .select()
      .from(academicSessions)
      .where(eq(academicSessions.isCurrent, true));
    await api.db.insert(payments).values({
      reference: `CACHE-${student.id}`,
      studentId: student.id,
      paymentOption: "full",
      level: student.level,
      session: current!.name,
      amountKobo: 100,
      status: "success",
    });
    expect(await feeOnPaymentPage()).toBe("full");
    await wait(CACHE_MS + 100);
    expect(await feeOnRecord()).toBe("full");
    expect(unpaid).not.toBe("full");
  });

  it("an idle session still ends on time though it is cached", async () => {
    const student = await api.createStudent({ phone: "08035550005", password: "demo1234" });
    const token = await api.signIn(student.phone);
    expect((await me(token)).status).toBe(200);
    api.clock.advance(121 * 60_000);
    expect((await me(token)).status).toBe(401);
  });
});
