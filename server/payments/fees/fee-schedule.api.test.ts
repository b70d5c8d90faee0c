import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { academicSessions, feeSchedule, payments } from "../../db/schema.ts";
import { PAID_FEE_IS_FIXED } from "../../../common/payments/fee-schedule.ts";
import { createFeesKit, type FeesKit } from "./fees.test-kit.ts";

let kit: FeesKit;
beforeAll(async () => {
  kit = await createFeesKit();
});
afterAll(() => kit.api.close());

const fee = (fields: Record<string, unknown> = {}) => ({
  session: "2024/2025",
  programme_id: "",
  level: 300,
  study_mode: "",
  payment_option: "full",
  amount_naira: "95,000.00",
  ...fields,
});

describe("the bursar adds and edits fees", () => {
  it("stores naira typed with commas and kobo as whole kobo, and audits it", async () => {
    const response = await kit.send(
      "POST",
      "/staff/fees",
      fee({
        level: 500,
        session: "2019/2020",
        programme_id: kit.english,
        amount_naira: "45,000.50",
      }),
    );
    expect(response.status).toBe(201);
    const { data } = await response.json();
    const [row] = await kit.api.db.select().from(feeSchedule).where(eq(feeSchedule.id, data.id));
    expect(row).toMatchObject({
      amountKobo: 4_500_050,
      programmeId: kit.english,
      studyMode: null,
      replacedAt: null,
    });
    expect(
      (await kit.audits("fee.create")).some((entry) => entry.entityId === String(data.id)),
    ).toBe(true);
  });

  it.each([
    ["a negative fee", fee({ amount_naira: "-5000" }), "cannot be negative"],
    [
      "a fee in fractions of a kobo",
      fee({ amount_naira: "95000.505" }),
      "at most two decimal places",
    ],
    [
      "a fee sent as a fractional number",
      fee({ amount_naira: 95000.125 }),
      "at most two decimal places",
    ],
    ["a fee of nothing", fee({ amount_naira: "0" }), "more than ₦0"],
    ["words for an amount", fee({ amount_naira: "ninety thousand" }), "using digits"],
    [
      "a session that does not exist",
      fee({ session: "2031/2032" }),
      "There is no 2031/2032 session",
    ],
    [
      "a programme that does not exist",
      fee({ programme_id: 99_999 }),
      "There is no such programme",
    ],
    ["an unknown option", fee({ payment_option: "tips" }), "The payment option must be one of"],
    ["a level that is not one", fee({ level: 250 }), "The level must be 100, 200"],
  ])("refuses %s with a 400 and changes nothing", async (_case, json, message) => {
    const before = await kit.feeRows();
    const response = await kit.send("POST", "/staff/fees", json);
    expect(response.status).toBe(400);
    expect(JSON.stringify(await response.json())).toContain(message);
    expect(await kit.feeRows()).toEqual(before);
  });

  it("refuses a body that is not JSON with 415", async () => {
    const response = await kit.api.request("/staff/fees", {
      method: "POST",
      token: kit.bursar,
      body: "session=2024/2025",
    });
    expect(response.status).toBe(415);
  });

  it("sends the bursar to edit a fee already set and unpaid instead of adding it twice", async () => {
    const response = await kit.send(
      "POST",
      "/staff/fees",
      fee({ level: 100, session: "2019/2020" }),
    );
    expect(response.status).toBe(409);
    expect((await response.json()).message).toContain("edit its amount instead");
  });

  it("changes an unpaid fee's amount, audited; the student's quote follows", async () => {
    const me = await kit.newStudent({ level: 200 });
    const target = (await kit.feeRows()).find(
      (row) => row.session === "2022/2023" && row.level === 200 && row.paymentOption === "full",
    )!;
    const response = await kit.send("PATCH", `/staff/fees/${target.id}`, {
      amount_naira: "101,250.75",
    });
    expect(response.status).toBe(200);
    expect(await kit.quote(me.token, "full", 200, "2022/2023")).toBe(101_250.75);
    const [audit] = (await kit.audits("fee.update")).filter(
      (entry) => entry.entityId === String(target.id),
    );
    expect(audit).toMatchObject({
      before: { amount_kobo: target.amountKobo },
      after: { amount_kobo: 10_125_075 },
    });
  });

  it("answers 404 for a fee that does not exist and 400 for a bad amount", async () => {
    expect((await kit.send("PATCH", "/staff/fees/999999", { amount_naira: "1.00" })).status).toBe(
      404,
    );
    const target = (await kit.feeRows())[0]!;
    expect(
      (await kit.send("PATCH", `/staff/fees/${target.id}`, { amount_naira: "-1" })).status,
    ).toBe(400);
  });
});

describe("the most specific fee wins", () => {
  it("programme and study mode before programme, before study mode, before all", async () => {
    const biologist = await kit.newStudent({ level: 400 });
    const linguist = await kit.newStudent({ level: 400, programmeId: kit.english });
    const add = (fields: Record<string, unknown>) =>
      kit.send("POST", "/staff/fees", fee({ level: 400, ...fields }));
    expect(await kit.quote(biologist.token, "full", 400)).toBe(90_000);
    expect((await add({ study_mode: "full-TIME", amount_naira: "91,000" })).status).toBe(201);
    expect(await kit.quote(biologist.token, "full", 400)).toBe(91_000);
    expect((await add({ programme_id: kit.biology, amount_naira: "92,000" })).status).toBe(201);
    expect(await kit.quote(biologist.token, "full", 400)).toBe(92_000);
    expect(
      (await add({ programme_id: kit.biology, study_mode: "Full Time", amount_naira: "93,000" }))
        .status,
    ).toBe(201);
    expect(
      (await add({ programme_id: kit.biology, study_mode: "Part Time", amount_naira: "50,000" }))
        .status,
    ).toBe(201);
    expect(await kit.quote(biologist.token, "full", 400)).toBe(93_000);
    // Another programme's student still meets the study-mode fee for everyone.
    expect(await kit.quote(linguist.token, "full", 400)).toBe(91_000);
  });
});

describe("study modes on the registry's list", () => {
  it("a fee written in any spelling reaches the students of that mode: the lookup cannot miss on spelling", async () => {
    const partTimer = await kit.newStudent({ level: 300, studyMode: "Part-Time" });
    const fullTimer = await kit.newStudent({ level: 300 });
    const before = await kit.quote(partTimer.token, "full", 300);
    expect(
      (
        await kit.send(
          "POST",
          "/staff/fees",
          fee({ study_mode: "part time", amount_naira: "130,000" }),
        )
      ).status,
    ).toBe(201);
    expect(await kit.quote(partTimer.token, "full", 300)).toBe(130_000);
    expect(await kit.quote(fullTimer.token, "full", 300)).toBe(before);
    const [saved] = (await kit.feeRows()).filter(
      (row) => row.level === 300 && row.amountKobo === 13_000_000,
    );
    expect(saved?.studyMode).toBe("Part-Time");
  });

  it("refuses a mode not on the list, naming those that are, and saves nothing", async () => {
    const before = await kit.feeRows();
    const refused = await kit.send(
      "POST",
      "/staff/fees",
      fee({ study_mode: "Weekend", amount_naira: "10,000" }),
    );
    expect(refused.status).toBe(400);
    expect((await refused.json()).error.message).toBe(
      'There is no study mode "Weekend". The registry\'s study modes are: "Full Time", "Part-Time". The registry adds new ones under Academic structure → Modes.',
    );
    expect(await kit.feeRows()).toEqual(before);
  });
});

describe("a fee students have paid", () => {
  it("cannot change, says why, and is replaced by a new fee for later payments", async () => {
    const me = await kit.newStudent();
    const reference = await kit.start(me, "part");
    await kit.payAtSandbox(reference);
    await kit.verify(reference, me.token);
    const paid = (
      await kit.api.db.select().from(payments).where(eq(payments.reference, reference))
    )[0]!;
    const before = await kit.feeRows();

    const refused = await kit.send("PATCH", `/staff/fees/${paid.feeId}`, {
      amount_naira: "80,000",
    });
    expect(refused.status).toBe(409);
    expect((await refused.json()).message).toBe(PAID_FEE_IS_FIXED);
    expect(await kit.feeRows()).toEqual(before);

    const replaced = await kit.send(
      "POST",
      "/staff/fees",
      fee({ level: 100, payment_option: "part", amount_naira: "80,000" }),
    );
    expect(replaced.status).toBe(201);
    expect((await replaced.json()).message).toContain("replaces the paid fee of ₦72,000");
    const old = (await kit.feeRows()).find((row) => row.id === paid.feeId)!;
    expect(old.replacedAt).not.toBeNull();
    expect(old.amountKobo).toBe(paid.amountKobo);
    expect(await kit.quote((await kit.newStudent()).token, "part")).toBe(80_000);
    expect(
      (await kit.send("PATCH", `/staff/fees/${paid.feeId}`, { amount_naira: "1" })).status,
    ).toBe(409);
    expect((await kit.audits("fee.replace")).length).toBe(1);
  });

  it("shows its credited payments in the list", async () => {
    const list = await (
      await kit.api.request("/staff/fees?session=2024/2025&level=100&programme=all", {
        token: kit.bursar,
      })
    ).json();
    expect(
      list.data.find((row: { payment_option: string }) => row.payment_option === "part"),
    ).toMatchObject({ amount_kobo: 8_000_000, credited_payments: 0 });
    expect(list.data.every((row: { programme: string | null }) => row.programme === null)).toBe(
      true,
    );
    expect(list.sessions.map((s: { name: string }) => s.name)).toContain("2024/2025");
  });
});

describe("late fees", () => {
  const current = async () =>
    (
      await kit.api.db.select().from(academicSessions).where(eq(academicSessions.name, "2024/2025"))
    )[0]!;

  it("are refused before the session's late-fees day and quoted from it", async () => {
    const me = await kit.newStudent();
    expect(await kit.quote(me.token, "latefees")).toBe(
      "Late fees for 2024/2025 apply from 1 March 2025. Until then, choose another payment option.",
    );
    const session = await current();
    const response = await kit.send("PATCH", `/staff/sessions/${session.id}/late-fees`, {
      late_fees_from: "2025-01-15",
    });
    expect(response.status).toBe(200);
    expect(await kit.quote(me.token, "latefees")).toBe(5_000);
    expect((await kit.audits("session.late_fees")).at(-1)).toMatchObject({
      before: { lateFeesFrom: "2025-03-01" },
      after: { lateFeesFrom: "2025-01-15" },
    });
  });

  it("are refused when the session has none, and a bad date changes nothing", async () => {
    const session = await current();
    expect(
      (
        await kit.send("PATCH", `/staff/sessions/${session.id}/late-fees`, {
          late_fees_from: "15/01/2025",
        })
      ).status,
    ).toBe(400);
    expect((await current()).lateFeesFrom).toBe("2025-01-15");
    expect(
      (await kit.send("PATCH", `/staff/sessions/${session.id}/late-fees`, { late_fees_from: "" }))
        .status,
    ).toBe(200);
    expect(await kit.quote((await kit.newStudent()).token, "latefees")).toBe(
      "No late fee applies in 2024/2025. Choose another payment option.",
    );
    expect(
      (await kit.send("PATCH", "/staff/sessions/999999/late-fees", { late_fees_from: "" })).status,
    ).toBe(404);
  });
});
