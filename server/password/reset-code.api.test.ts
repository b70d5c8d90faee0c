import { and, count, eq } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createApiHarness, type ApiHarness } from "../testing/api-harness.test-kit.ts";
import { auditLog, passwordResetCodes, smsMessages, students } from "../db/schema.ts";
import { readSmsOutbox } from "../sms/outbox.ts";
import { unusablePasswordHash } from "../auth/password.ts";
import { CODE_NOT_RIGHT, CODE_SENT } from "./code-routes.ts";
import { createStaff, staffSignIn } from "../staff/staff.test-kit.ts";

// A student without an e-mail address sets a new password with a 6-digit code sent by SMS to
// the phone on their record (decision 200).

const onPostgres = process.env.TEST_DATABASE === "postgres";

let api: ApiHarness;
beforeAll(async () => {
  api = await createApiHarness();
});
afterAll(() => api.close());

let nextPhone = 1;
/** A student with a number of their own, so each test's limits and codes are its own. */
async function studentWithPhone(fields: Parameters<ApiHarness["createStudent"]>[0] = {}) {
  const phone = `0706${String(nextPhone++).padStart(7, "0")}`;
  return api.createStudent({ phone, ...fields });
}

let nextClient = 1;
/** Each test asks from a network of its own unless it means to share one. */
const freshClient = () => `198.51.${nextClient++}.10`;

const askForCode = (phone: string, clientAddress = freshClient()) =>
  api.request("/password/request-reset-code", {
    method: "POST",
    json: { phone },
    clientAddress,
  });
const resetWithCode = (json: Record<string, unknown>, clientAddress = freshClient()) =>
  api.request("/password/reset-with-code", { method: "POST", json, clientAddress });

/** The newest code texted to `phone` (local form), once the queue has sent it. */
async function textedCode(phone: string) {
  const international = `+234${phone.slice(1)}`;
  return vi.waitFor(
    async () => {
      await api.deliverSms();
      const [message] = (await readSmsOutbox(api.smsOutboxDir)).filter(
        (sms) => sms.to === international,
      );
      const code = message?.text.match(/^(\d{6}) is your/)?.[1];
      if (!code) throw new Error("no code texted yet");
      return code;
    },
    { timeout: 5_000, interval: 50 },
  );
}

async function textsTo(phone: string) {
  await api.deliverSms();
  const international = `+234${phone.slice(1)}`;
  return (await readSmsOutbox(api.smsOutboxDir)).filter((sms) => sms.to === international);
}

/** How many codes were issued to the student. */
async function codesOf(studentId: number) {
  const [row] = await api.db
    .select({ n: count() })
    .from(passwordResetCodes)
    .where(eq(passwordResetCodes.studentId, studentId));
  return row!.n;
}

describe("POST /password/request-reset-code", () => {
  it("texts a code to the phone on the record, and sets the new password with it", async () => {
    const student = await studentWithPhone({ email: null });
    const answer = await askForCode(student.phone.replace(/^0/, "+234"));
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ status: "success", message: CODE_SENT });
    const code = await textedCode(student.phone);

    const done = await resetWithCode({
      phone: student.phone,
      code,
      password: "a-new-password",
      confirm_password: "a-new-password",
    });
    expect(done.status).toBe(200);
    expect(await done.json()).toEqual({
      status: "success",
      message: "Your password has been changed. Sign in with your new password.",
    });
    await expect(api.signIn(student.phone, "demo1234")).rejects.toThrow();
    await expect(api.signIn(student.phone, "a-new-password")).resolves.toBeTruthy();
    const [audit] = await api.db
      .select({ action: auditLog.action, byStudentId: auditLog.byStudentId })
      .from(auditLog)
      .where(and(eq(auditLog.entity, "student"), eq(auditLog.entityId, String(student.id))));
    expect(audit).toEqual({ action: "student.password_reset", byStudentId: student.id });

    // Spent: the same code sets nothing a second time.
    const again = await resetWithCode({ phone: student.phone, code, password: "third-password" });
    expect(again.status).toBe(400);
    await expect(api.signIn(student.phone, "a-new-password")).resolves.toBeTruthy();
  });

  it("answers a number on no record exactly as one on a record, and texts nobody", async () => {
    const student = await studentWithPhone();
    const known = await askForCode(student.phone);
    const unknown = await askForCode("07069999999");
    expect(unknown.status).toBe(known.status);
    expect(await unknown.json()).toEqual(await known.json());
    await textedCode(student.phone);
    expect(await textsTo("07069999999")).toEqual([]);
    const [queued] = await api.db
      .select({ n: count() })
      .from(smsMessages)
      .where(eq(smsMessages.studentId, student.id));
    expect(queued!.n).toBe(1);
  });

  it("lets an imported student without e-mail or password activate their account", async () => {
    const student = await studentWithPhone({ email: null, passwordHash: unusablePasswordHash() });
    await askForCode(student.phone);
    const code = await textedCode(student.phone);
    expect(
      (await resetWithCode({ phone: student.phone, code, password: "first-password" })).status,
    ).toBe(200);
    await expect(api.signIn(student.phone, "first-password")).resolves.toBeTruthy();
    const actions = await api.db
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(and(eq(auditLog.entity, "student"), eq(auditLog.entityId, String(student.id))));
    expect(actions).toEqual([{ action: "student.activated" }]);
  });

  it("logs neither the code nor the whole number", async () => {
    const student = await studentWithPhone();
    await askForCode(student.phone);
    const code = await textedCode(student.phone);
    const logged = api.logger.lines.join("\n");
    expect(logged).not.toContain(code);
    expect(logged).not.toContain(student.phone.slice(1));
  });

  it("refuses a fourth code for one number within the hour, for known and unknown numbers alike", async () => {
    const student = await studentWithPhone();
    for (const phone of [student.phone, "07068888888"]) {
      for (let i = 0; i < 3; i++) expect((await askForCode(phone)).status).toBe(200);
      const refused = await askForCode(phone);
      expect(refused.status).toBe(429);
      expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
      expect(((await refused.json()) as { message: string }).message).toMatch(
        /^Too many password codes asked for\. Wait \d+ minutes? and try again\.$/,
      );
    }
    await vi.waitFor(async () => expect(await codesOf(student.id)).toBe(3));
    api.clock.advance(60 * 60_000);
    expect((await askForCode(student.phone)).status).toBe(200);
  });

  it("refuses a network asking for codes for many numbers", async () => {
    const network = freshClient();
    for (let i = 0; i < 20; i++)
      expect((await askForCode(`0707${String(i).padStart(7, "0")}`, network)).status).toBe(200);
    expect((await askForCode("07071111111", network)).status).toBe(429);
  });

  it.each([
    [{}, "phone", "Enter a Nigerian mobile number such as 08031234567."],
    [{ phone: "12345" }, "phone", "Enter a Nigerian mobile number such as 08031234567."],
    [{ phone: 8031234567 }, "phone", "Enter a Nigerian mobile number such as 08031234567."],
  ])("refuses %j with a clear error", async (json, field, message) => {
    const answer = await api.request("/password/request-reset-code", { method: "POST", json });
    expect(answer.status).toBe(400);
    const body = (await answer.json()) as { error: { fields: Record<string, string> } };
    expect(body.error.fields[field]).toBe(message);
  });
});

describe("POST /password/reset-with-code", () => {
  async function studentWithCode() {
    const student = await studentWithPhone();
    await askForCode(student.phone);
    return { student, code: await textedCode(student.phone) };
  }
  const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, "0");

  it("takes five tries at a code, then refuses even the right one", async () => {
    const { student, code } = await studentWithCode();
    for (let i = 0; i < 5; i++) {
      const answer = await resetWithCode({
        phone: student.phone,
        code: wrong(code),
        password: "guessing-pw",
      });
      expect(answer.status).toBe(400);
      expect(await answer.json()).toMatchObject({ message: CODE_NOT_RIGHT });
    }
    const right = await resetWithCode({ phone: student.phone, code, password: "too-late-pw" });
    expect(right.status).toBe(400);
    await expect(api.signIn(student.phone, "demo1234")).resolves.toBeTruthy();
  });

  it("gives guesses sent all at once no more than five comparisons between them", async () => {
    const { student, code } = await studentWithCode();
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        resetWithCode({
          phone: student.phone,
          code: wrong(String(Number(code) + i)),
          password: "guessing-pw",
        }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(12).fill(400));
    const [row] = await api.db
      .select({ tries: passwordResetCodes.tries })
      .from(passwordResetCodes)
      .where(eq(passwordResetCodes.studentId, student.id));
    expect(row!.tries).toBe(5);
    expect(
      (await resetWithCode({ phone: student.phone, code, password: "too-late-pw" })).status,
    ).toBe(400);
  });

  it.skipIf(!onPostgres)(
    "counts tries that waited on one another against the same five",
    async () => {
      const { student, code } = await studentWithCode();
      const rival = new pg.Client({ connectionString: (api.connection as { url: string }).url });
      await rival.connect();
      try {
        // Another try holds the code's row: every guess below reads four tries left, then waits.
        await rival.query("begin");
        await rival.query("select 1 from password_reset_codes where student_id = $1 for update", [
          student.id,
        ]);
        const guesses = Array.from({ length: 8 }, (_, i) =>
          resetWithCode({
            phone: student.phone,
            code: wrong(String(Number(code) + i)),
            password: "guessing-pw",
          }),
        );
        await vi.waitFor(
          async () => {
            const waiting = await rival.query(
              "select 1 from pg_locks where not granted and pid in (select pid from pg_stat_activity where datname = current_database())",
            );
            expect(waiting.rowCount).toBe(8);
          },
          { timeout: 5_000 },
        );
        await rival.query("commit");
        expect((await Promise.all(guesses)).map((answer) => answer.status)).toEqual(
          Array(8).fill(400),
        );
        const [row] = await api.db
          .select({ tries: passwordResetCodes.tries })
          .from(passwordResetCodes)
          .where(eq(passwordResetCodes.studentId, student.id));
        expect(row!.tries).toBe(5);
      } finally {
        await rival.end();
      }
    },
  );

  it("refuses a code after its ten minutes", async () => {
    const { student, code } = await studentWithCode();
    api.clock.advance(10 * 60_000);
    const answer = await resetWithCode({ phone: student.phone, code, password: "too-late-pw" });
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({ message: CODE_NOT_RIGHT });
  });

  it("takes only the newest code", async () => {
    const { student, code: first } = await studentWithCode();
    api.clock.advance(1_000);
    await askForCode(student.phone);
    const second = await vi.waitFor(async () => {
      const codes = (await textsTo(student.phone)).map((sms) => sms.text.slice(0, 6));
      if (codes.length < 2) throw new Error("second code not texted yet");
      return codes[0]!;
    });
    if (second !== first)
      expect(
        (await resetWithCode({ phone: student.phone, code: first, password: "older-code" })).status,
      ).toBe(400);
    expect(
      (await resetWithCode({ phone: student.phone, code: second, password: "newer-code" })).status,
    ).toBe(200);
  });

  it("refuses a code once the password has changed another way", async () => {
    const { student, code } = await studentWithCode();
    await api.db
      .update(students)
      .set({ passwordHash: unusablePasswordHash() })
      .where(eq(students.id, student.id));
    expect(
      (await resetWithCode({ phone: student.phone, code, password: "after-change" })).status,
    ).toBe(400);
  });

  it("refuses a code once the registry has changed the student's number", async () => {
    const { student, code } = await studentWithCode();
    const registry = await staffSignIn(api, await createStaff(api, { roles: ["registry"] }));
    const newPhone = `0709${String(nextPhone++).padStart(7, "0")}`;
    const changed = await api.request(`/staff/students/${student.id}`, {
      method: "PATCH",
      token: registry,
      json: { phone: newPhone },
    });
    expect(changed.status).toBe(200);
    for (const phone of [student.phone, newPhone])
      expect((await resetWithCode({ phone, code, password: "after-new-number" })).status).toBe(400);
    const [row] = await api.db
      .select({ usedAt: passwordResetCodes.usedAt })
      .from(passwordResetCodes)
      .where(eq(passwordResetCodes.studentId, student.id));
    expect(row!.usedAt).not.toBeNull();
  });

  it("answers a number on no record as it answers a wrong code", async () => {
    const { student, code } = await studentWithCode();
    const unknown = await resetWithCode({ phone: "07067777777", code, password: "guessing-pw" });
    const wrongCode = await resetWithCode({
      phone: student.phone,
      code: wrong(code),
      password: "guessing-pw",
    });
    expect(unknown.status).toBe(wrongCode.status);
    expect(await unknown.json()).toEqual(await wrongCode.json());
  });

  it.each([
    [{ code: "12a456", password: "long-enough" }, "code", "Enter the 6-digit code from the SMS."],
    [{ code: "12345", password: "long-enough" }, "code", "Enter the 6-digit code from the SMS."],
    [
      { code: "123456", password: "short" },
      "password",
      "Use at least 8 characters for your new password.",
    ],
    [
      { code: "123456", password: "long-enough", confirm_password: "different" },
      "confirm_password",
      "Password do not match",
    ],
  ])("refuses %j with a clear error and changes nothing", async (fields, field, message) => {
    const { student, code } = await studentWithCode();
    const answer = await resetWithCode({ phone: student.phone, ...fields });
    expect(answer.status).toBe(400);
    const body = (await answer.json()) as { error: { fields: Record<string, string> } };
    expect(body.error.fields[field]).toBe(message);
    // Refused before the code was tried: it still works.
    expect(
      (await resetWithCode({ phone: student.phone, code, password: "still-works" })).status,
    ).toBe(200);
  });

  it("accepts the code typed with spaces", async () => {
    const { student, code } = await studentWithCode();
    const spaced = `${code.slice(0, 3)} ${code.slice(3)}`;
    expect(
      (await resetWithCode({ phone: student.phone, code: spaced, password: "spaced-code" })).status,
    ).toBe(200);
  });

  it("refuses a network trying codes for many numbers", async () => {
    const network = freshClient();
    for (let i = 0; i < 30; i++)
      expect(
        (
          await resetWithCode(
            { phone: `0708${String(i).padStart(7, "0")}`, code: "000000", password: "guessing-pw" },
            network,
          )
        ).status,
      ).toBe(400);
    const refused = await resetWithCode(
      { phone: "07081111111", code: "000000", password: "guessing-pw" },
      network,
    );
    expect(refused.status).toBe(429);
  });
});
