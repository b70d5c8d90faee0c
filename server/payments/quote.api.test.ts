import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { choice, createPaymentsKit, FULL_100_2024, type PaymentsKit } from "./payments.test-kit.ts";
import { payments } from "../db/schema.ts";

let kit: PaymentsKit;
let me: Awaited<ReturnType<PaymentsKit["newStudent"]>>;

beforeAll(async () => {
  kit = await createPaymentsKit();
  me = await kit.newStudent();
});
afterAll(() => kit.api.close());

const quote = (json: unknown, token = me.token) =>
  kit.post("/student/generate-payment", token, json);
const schoolfees = (option: string, level: number | string = 100, session = "2024/2025") => ({
  payment_name: "schoolfees",
  ...choice(option, level, session),
});

async function credit(studentId: number, option: string, level = 100, session = "2024/2025") {
  await kit.api.db.insert(payments).values({
    reference: `T-${option}-${level}-${session.replace("/", "")}-${studentId}`,
    studentId,
    paymentOption: option,
    level,
    session,
    amountKobo: 100,
    status: "success",
  });
}

describe("POST /student/generate-payment", () => {
  it("answers the scheduled amount in naira for option, level and session", async () => {
    const response = await quote(schoolfees("full"));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      status: "success",
      message: "Fee generated",
      data: { amount: FULL_100_2024, gateways: ["paystack"] },
    });
  });

  it.each([
    ["part", 100, "2024/2025", 72_000],
    ["second_installment", 100, "2024/2025", 48_000],
    ["latefees", 300, "2021/2022", 5_000],
    ["full", 500, "2019/2020", 72_500],
    ["full", "200", "2023/2024", 97_500],
  ])(
    "quotes %s at %s level in %s as ₦%d (part first where needed)",
    async (option, level, session, amount) => {
      // A student at the row's level: in the current session only their own level is payable.
      const who = await kit.newStudent({ level: Number(level) });
      if (option === "second_installment")
        await credit(who.student.id, "part", Number(level), session);
      const response = await quote(schoolfees(option, level, session), who.token);
      expect((await response.json()).data).toEqual({ amount, gateways: ["paystack"] });
    },
  );

  it("ignores an amount or anything else the browser adds", async () => {
    const response = await quote({
      ...schoolfees("full"),
      amount: 1,
      amount_kobo: 100,
      student_id: 999,
    });
    expect((await response.json()).data.amount).toBe(FULL_100_2024);
  });

  it.each([
    ["no payment_name", choice("full"), "Only school fees can be quoted here."],
    [
      "another payment_name",
      { ...schoolfees("full"), payment_name: "hostel" },
      "Only school fees can be quoted here.",
    ],
    [
      "no option",
      { payment_name: "schoolfees", payment_level: 100, payment_session: "2024/2025" },
      "Choose a payment category: Full Payment, Part Payment, Second Installment or Late Fees.",
    ],
    [
      "an unknown option",
      schoolfees("everything"),
      "Choose a payment category: Full Payment, Part Payment, Second Installment or Late Fees.",
    ],
    ["level 600", schoolfees("full", 600), "Choose a level from 100 to 500."],
    ["level 150", schoolfees("full", 150), "Choose a level from 100 to 500."],
    [
      "a level that is not a number",
      schoolfees("full", "hundred"),
      "Choose a level from 100 to 500.",
    ],
    [
      "a malformed session",
      schoolfees("full", 100, "2024-2025"),
      "Choose a session such as 2024/2025.",
    ],
    [
      "no session",
      { payment_name: "schoolfees", payment_option: "full", payment_level: 100 },
      "Choose a session.",
    ],
  ])("refuses %s with a 400 saying what to choose", async (_case, json, message) => {
    const response = await quote(json);
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.status).toBe("error");
    expect(body.error.message).toBe(message);
  });

  it("refuses a level above the student's own, for the quote and for the payment", async () => {
    const third = await kit.newStudent({ level: 300 });
    const message = "You are in 300 level; you cannot pay 500 level fees.";
    const quoted = await quote(schoolfees("full", 500, "2024/2025"), third.token);
    expect(quoted.status).toBe(400);
    expect((await quoted.json()).error).toEqual({
      message,
      fields: { payment_level: "Choose 300 level or below." },
    });
    const started = await kit.post("/student/school-fee", third.token, {
      student_id: third.student.id,
      ...choice("full", 500, "2024/2025"),
    });
    expect(started.status).toBe(400);
    expect((await started.json()).error.message).toBe(message);
    const stored = await kit.api.db.select().from(payments);
    expect(stored.filter((row) => row.studentId === third.student.id)).toEqual([]);
    // Their own level and a level they passed through are still theirs to pay.
    expect((await quote(schoolfees("full", 300, "2024/2025"), third.token)).status).toBe(200);
    expect((await quote(schoolfees("full", 100, "2022/2023"), third.token)).status).toBe(200);
  });

  it("refuses a lower level in the current session, where only the student's own level settles the fees", async () => {
    const third = await kit.newStudent({ level: 300 });
    const message = "You are in 300 level in 2024/2025; this session's fees are paid at 300 level.";
    const quoted = await quote(schoolfees("full", 100, "2024/2025"), third.token);
    expect(quoted.status).toBe(400);
    expect((await quoted.json()).error).toEqual({
      message,
      fields: { payment_level: "Choose 300 level for 2024/2025." },
    });
    const started = await kit.post("/student/school-fee", third.token, {
      student_id: third.student.id,
      ...choice("full", 100, "2024/2025"),
    });
    expect(started.status).toBe(400);
    expect((await started.json()).error.message).toBe(message);
    const stored = await kit.api.db.select().from(payments);
    expect(stored.filter((row) => row.studentId === third.student.id)).toEqual([]);
  });

  it("counts only the student's own level towards this session's fee status", async () => {
    const third = await kit.newStudent({ level: 300 });
    // A lower level's fee credited in the session (paid before the rule above, or by the bursary).
    await credit(third.student.id, "full", 100, "2024/2025");
    const status = async () => {
      const read = async (path: string) =>
        (await kit.api.request(path, { token: third.token })).json();
      const info = await read(`/student/payment-info/${third.student.id}`);
      const record = await read("/student/me");
      return [info.data.school_fees_payment.payment_complete, record.data.payment_complete];
    };
    expect(await status()).toEqual([null, null]);
    await credit(third.student.id, "full", 300, "2024/2025");
    expect(await status()).toEqual(["full", "full"]);
  });

  it("refuses a session with no fee schedule", async () => {
    const response = await quote(schoolfees("full", 100, "2030/2031"));
    expect(response.status).toBe(400);
    expect((await response.json()).message).toBe(
      "No fee is set for Full Payment at 100 level in 2030/2031. Check your choices, or ask the bursary.",
    );
  });

  it("refuses the second installment before the first is paid", async () => {
    const response = await quote(schoolfees("second_installment"));
    expect(response.status).toBe(400);
    expect((await response.json()).message).toMatch(
      /^Pay the first installment \(Part Payment\) for 100 level, 2024\/2025 before/,
    );
  });

  it("refuses every option once the full fee is paid, and full once part is paid", async () => {
    const paidFull = await kit.newStudent();
    await credit(paidFull.student.id, "full");
    for (const option of ["full", "part", "second_installment", "latefees"]) {
      const response = await quote(schoolfees(option), paidFull.token);
      expect(response.status).toBe(400);
      expect((await response.json()).message).toMatch(/are fully paid/);
    }
    // Another session is still open.
    expect((await quote(schoolfees("full", 100, "2023/2024"), paidFull.token)).status).toBe(200);

    const paidPart = await kit.newStudent();
    await credit(paidPart.student.id, "part");
    const full = await quote(schoolfees("full"), paidPart.token);
    expect((await full.json()).message).toBe(
      "You have paid the first installment for 100 level, 2024/2025. Choose Second Installment to pay the rest.",
    );
    expect((await quote(schoolfees("second_installment"), paidPart.token)).status).toBe(200);
  });

  it("refuses a body that is not JSON, and a caller who is not signed in", async () => {
    const notJson = await kit.api.request("/student/generate-payment", {
      method: "POST",
      token: me.token,
      headers: { "content-type": "application/json" },
      body: "{",
    });
    expect(notJson.status).toBe(400);
    const anonymous = await kit.api.request("/student/generate-payment", {
      method: "POST",
      json: schoolfees("full"),
    });
    expect(anonymous.status).toBe(401);
  });
});
