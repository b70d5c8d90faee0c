import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, asc, count, eq } from "drizzle-orm";
import { createApiHarness, type ApiHarness } from "../testing/api-harness.test-kit.ts";
import {
  courseRegistrations,
  courses,
  feeSchedule,
  payments,
  registrationReturns,
  smsMessages,
  staff,
  students,
  ussdAccounts,
} from "../db/schema.ts";
import { readSmsOutbox } from "../sms/outbox.ts";
import { isGsm7 } from "../sms/gsm7.ts";
import { USSD_LANGUAGES, type UssdLanguage } from "../../common/ussd/ussd-pin.ts";
import { setUssdLanguage } from "./pin.ts";
import { say } from "./languages/index.ts";
import { formatCollegeTime } from "../../common/format/dates.ts";
import { SCREEN_LIMIT } from "./screens.ts";
import { DEMO_USSD_PIN } from "./seed.ts";

// The USSD menu as Africa's Talking calls it (decision 202): the PIN and its lock, every screen in
// every language within 182 characters, nothing changed by a session left mid-menu, and paying by
// SMS.

const SECRET = "u".repeat(40);
const CHIAMAKA = "08030000001";
let api: ApiHarness;
let sessionCount = 0;

beforeAll(async () => {
  api = await createApiHarness({
    smsCallbackSecret: SECRET,
    demoData: true,
    offeredGateways: ["paystack", "remita"],
  });
});
afterAll(() => api.close());

const international = (phone: string) => `+234${phone.slice(1)}`;

/** One screen of a session, as the network asks for it. */
async function screen(
  phone: string,
  sessionId: string,
  text: string,
  { secret = SECRET, clientAddress = "196.201.214.200" } = {},
) {
  const response = await api.request(`/ussd?${new URLSearchParams({ secret })}`, {
    method: "POST",
    clientAddress,
    body: new URLSearchParams({
      sessionId,
      serviceCode: "*384*123#",
      phoneNumber: international(phone),
      networkCode: "62120",
      text,
    }),
  });
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^text\/plain/);
  return response.text();
}

/** A new session that walks `choices` one screen at a time, answering every screen seen. */
async function dial(phone: string, choices: string[], pin = DEMO_USSD_PIN) {
  const sessionId = `ATUid_test_${(sessionCount += 1)}`;
  const seen = [await screen(phone, sessionId, "")];
  const typed: string[] = [];
  for (const choice of [pin, ...choices]) {
    typed.push(choice);
    seen.push(await screen(phone, sessionId, typed.join("*")));
  }
  return seen;
}
const last = (screens: string[]) => screens.at(-1)!;

async function studentWithPin(pin = "4826") {
  const student = await api.createStudent();
  const token = await api.signIn(student.phone);
  const saved = await api.request("/student/ussd-pin", {
    method: "PUT",
    token,
    json: { pin, pin_again: pin, password: "demo1234" },
  });
  expect(saved.status).toBe(200);
  return { student, token };
}

async function textsTo(phone: string) {
  await api.deliverSms();
  return (await readSmsOutbox(api.smsOutboxDir)).filter((sms) => sms.to === international(phone));
}

/** What a session could change: payments, texts, the menu's language and the PIN's count. */
async function footprint() {
  const [[paid], [texts], accounts] = await Promise.all([
    api.db.select({ n: count() }).from(payments),
    api.db.select({ n: count() }).from(smsMessages),
    api.db
      .select({ language: ussdAccounts.language, wrongPins: ussdAccounts.wrongPins })
      .from(ussdAccounts)
      .orderBy(ussdAccounts.studentId),
  ]);
  return { payments: paid!.n, texts: texts!.n, accounts };
}

describe("the USSD PIN on the portal", () => {
  const put = (token: string, json: unknown) =>
    api.request("/student/ussd-pin", { method: "PUT", token, json });

  it("is unset at first, and set with the student's password", async () => {
    const student = await api.createStudent();
    const token = await api.signIn(student.phone);
    const before = await (await api.request("/student/ussd-pin", { token })).json();
    expect(before.data).toEqual({ pin_set_at: null, locked_until: null, dial_code: null });
    const saved = await put(token, { pin: "4826", pin_again: "4826", password: "demo1234" });
    expect(await saved.json()).toMatchObject({
      status: "success",
      message: "Your USSD PIN is saved. Use it the next time you dial.",
      data: { pin_set_at: api.clock.now().toISOString(), locked_until: null },
    });
    const account = await accountOf(student.id);
    expect(account!.pinHash).not.toContain("4826");
  });

  it.each([
    [{ pin: "482", pin_again: "482", password: "demo1234" }, "pin", "A USSD PIN is 4 digits."],
    [{ pin: "48a6", pin_again: "48a6", password: "demo1234" }, "pin", "A USSD PIN is 4 digits."],
    [
      { pin: "1111", pin_again: "1111", password: "demo1234" },
      "pin",
      "Choose a PIN that is harder to guess than 1111 or 1234.",
    ],
    [
      { pin: "6543", pin_again: "6543", password: "demo1234" },
      "pin",
      "Choose a PIN that is harder to guess than 1111 or 1234.",
    ],
    [
      { pin: "4826", pin_again: "4827", password: "demo1234" },
      "pin_again",
      "The two PINs are not the same.",
    ],
    [{ pin: "4826", pin_again: "4826" }, "password", "Enter your password."],
    [{ pin: 4826, pin_again: "4826", password: "demo1234" }, "pin", "Enter a 4-digit PIN."],
  ])("refuses %j and changes nothing", async (json, field, message) => {
    const student = await api.createStudent();
    const token = await api.signIn(student.phone);
    const answer = await put(token, json);
    expect(answer.status).toBe(400);
    expect((await answer.json()).error.fields[field]).toBe(message);
    expect(await accountOf(student.id)).toBeUndefined();
  });

  it("refuses a wrong password, and after five tries in a quarter of an hour, any password", async () => {
    const { student, token } = await studentWithPin("4826");
    for (let i = 0; i < 4; i++) {
      const answer = await put(token, { pin: "9152", pin_again: "9152", password: "not-mine" });
      expect(answer.status).toBe(400);
      expect((await answer.json()).message).toBe(
        "Your password is not right. Your USSD PIN was not changed.",
      );
    }
    const blocked = await put(token, { pin: "9152", pin_again: "9152", password: "demo1234" });
    expect(blocked.status).toBe(429);
    expect(last(await dial(student.phone, [], "4826"))).toMatch(/^CON Student Portal\n1 Fees/);
  });

  it("is for the signed-in student only", async () => {
    expect((await api.request("/student/ussd-pin")).status).toBe(401);
    expect((await api.request("/student/ussd-pin", { method: "PUT", json: {} })).status).toBe(401);
  });
});

describe("who may call the menu", () => {
  it("answers a wrong secret as an unknown address", async () => {
    const response = await api.request("/ussd?secret=wrong", {
      method: "POST",
      body: new URLSearchParams({ sessionId: "x", phoneNumber: international(CHIAMAKA), text: "" }),
    });
    expect(response.status).toBe(404);
  });

  it.each([
    ["no session id or number", new URLSearchParams({ text: "" })],
    ["an empty session id", new URLSearchParams({ sessionId: "", phoneNumber: "+2348030000001" })],
    [
      "a text longer than any walk",
      new URLSearchParams({
        sessionId: "s-long",
        phoneNumber: "+2348030000001",
        text: "1*".repeat(201),
      }),
    ],
    ["JSON, not a form", JSON.stringify({ sessionId: "s-json", phoneNumber: "+2348030000001" })],
  ])("refuses a callback with %s, and changes nothing", async (_, body) => {
    const before = await footprint();
    const response = await api.request(`/ussd?secret=${SECRET}`, { method: "POST", body });
    expect(response.status).toBe(400);
    expect((await response.json()).message).toBe(
      "Send the USSD callback as a form with sessionId, phoneNumber and text.",
    );
    expect(await footprint()).toEqual(before);
  });

  it("tells a number that is not Nigerian what it tells a number on no record", async () => {
    const response = await api.request(`/ussd?secret=${SECRET}`, {
      method: "POST",
      body: new URLSearchParams({
        sessionId: "s-abroad-2",
        phoneNumber: "+447700900123",
        text: "",
      }),
    });
    expect(await response.text()).toBe(
      "END To use this menu, sign in to the Student Portal and set a USSD PIN on your Biodata page.",
    );
  });

  it("without a secret, takes callbacks from this machine only", async () => {
    const local = await createApiHarness({ smsCallbackSecret: undefined });
    try {
      const body = () =>
        new URLSearchParams({ sessionId: "x", phoneNumber: "+2348030000009", text: "" });
      const far = await local.request("/ussd", { method: "POST", body: body() });
      expect(far.status).toBe(404);
      const near = await local.request("/ussd", {
        method: "POST",
        clientAddress: "127.0.0.1",
        body: body(),
      });
      expect(near.status).toBe(200);
    } finally {
      await local.close();
    }
  });

  it("tells a number on no record and a student without a PIN the same", async () => {
    const student = await api.createStudent();
    const unknown = await screen("08039999999", "s-unknown", "");
    expect(unknown).toBe(
      "END To use this menu, sign in to the Student Portal and set a USSD PIN on your Biodata page.",
    );
    expect(await screen(student.phone, "s-nopin", "")).toBe(unknown);
    expect(await screen("08039999999", "s-unknown", "1234")).toBe(unknown);
  });
});

describe("the PIN at the start of a session", () => {
  it("asks for it, and opens the menu with the right one", async () => {
    const screens = await dial(CHIAMAKA, []);
    expect(screens[0]).toBe("CON Student Portal\nEnter your 4-digit USSD PIN:");
    expect(screens[1]).toBe(
      "CON Student Portal\n1 Fees\n2 Pay fees\n3 Course registration\n4 Results\n5 Language\n0 Exit",
    );
  });

  it("locks the menu for an hour after three wrong PINs, and texts the student", async () => {
    const { student } = await studentWithPin("4826");
    expect(last(await dial(student.phone, [], "1111"))).toBe(
      "END Wrong PIN. Tries left: 2. Dial again.",
    );
    expect(last(await dial(student.phone, [], "2222"))).toBe(
      "END Wrong PIN. Tries left: 1. Dial again.",
    );
    const until = new Date(api.clock.now().getTime() + 60 * 60_000);
    const time = until.toLocaleTimeString("en-GB", {
      timeZone: "Africa/Lagos",
      hour: "2-digit",
      minute: "2-digit",
    });
    const locked = `END Too many wrong PINs. This menu is locked for your number until ${time}.`;
    expect(last(await dial(student.phone, [], "3333"))).toBe(locked);
    expect(last(await dial(student.phone, [], "4826"))).toBe(locked);
    expect(await screen(student.phone, "s-locked-start", "")).toBe(locked);
    const lockLines = api.logger.lines.filter(
      (line) => line.includes("USSD menu locked") && line.includes(`"studentId":${student.id}`),
    );
    expect(lockLines).toHaveLength(1);
    const texts = await textsTo(student.phone);
    expect(texts.map((sms) => sms.text)).toEqual([
      `Three wrong USSD PINs were entered for your Student Portal account. The USSD menu is locked until ${time}. Not you? Change your USSD PIN on the portal.`,
    ]);
    api.clock.advance(60 * 60_000 + 1);
    expect(last(await dial(student.phone, [], "4826"))).toMatch(/^CON Student Portal\n1 Fees/);
  });

  it("texts the lock in the menu's language", async () => {
    const { student } = await studentWithPin("4826");
    await setUssdLanguage(api.db, student.id, "yo");
    for (const pin of ["1111", "2222", "3333"]) await dial(student.phone, [], pin);
    const until = new Date(api.clock.now().getTime() + 60 * 60_000);
    const [sms] = await textsTo(student.phone);
    expect(sms!.text).toBe(say("yo", "sms_locked", { time: formatCollegeTime(until) }));
    expect(sms!.text).not.toContain("were entered");
  });

  it("counts three wrong PINs sent at once as three, and locks once", async () => {
    const { student } = await studentWithPin("4826");
    const answers = await Promise.all(
      ["1111", "2222", "3333", "5555", "6666"].map((pin, i) =>
        screen(student.phone, `s-race-${i}`, pin),
      ),
    );
    expect(answers.filter((text) => text.startsWith("END Wrong PIN"))).toHaveLength(2);
    expect(answers.filter((text) => text.startsWith("END Too many wrong PINs"))).toHaveLength(3);
    expect(await textsTo(student.phone)).toHaveLength(1);
  });

  it("does not count what is not a 4-digit PIN", async () => {
    const { student } = await studentWithPin("4826");
    expect(last(await dial(student.phone, [], "48"))).toBe(
      "END A USSD PIN is 4 digits. Dial again.",
    );
    const account = await accountOf(student.id);
    expect(account!.wrongPins).toBe(0);
  });

  it("starts again a session whose PIN this phone did not give", async () => {
    const { student } = await studentWithPin("4826");
    // Choices sent straight away, as if the PIN had been given: the network would not do this.
    expect(await screen(student.phone, "s-forged", "4826*1")).toBe(
      "END This session has ended. Dial again.",
    );
    // Another student's session: same answer.
    const chiamakas = `ATUid_chiamaka_${(sessionCount += 1)}`;
    await screen(CHIAMAKA, chiamakas, "");
    await screen(CHIAMAKA, chiamakas, DEMO_USSD_PIN);
    expect(await screen(student.phone, chiamakas, "4826*1")).toBe(
      "END This session has ended. Dial again.",
    );
  });

  it("ends the sessions an old PIN opened when the PIN changes", async () => {
    const { student, token } = await studentWithPin("4826");
    const sessionId = `ATUid_change_${(sessionCount += 1)}`;
    await screen(student.phone, sessionId, "");
    expect(await screen(student.phone, sessionId, "4826")).toMatch(/^CON Student Portal\n1/);
    await api.request("/student/ussd-pin", {
      method: "PUT",
      token,
      json: { pin: "9152", pin_again: "9152", password: "demo1234" },
    });
    expect(await screen(student.phone, sessionId, "4826*1")).toBe(
      "END This session has ended. Dial again.",
    );
  });

  it("answers a phone that asks too often that the session has ended", async () => {
    const { student } = await studentWithPin("4826");
    const sessionId = `ATUid_busy_${(sessionCount += 1)}`;
    await screen(student.phone, sessionId, "");
    await screen(student.phone, sessionId, "4826");
    let text = "4826";
    for (let i = 0; i < 58; i++) {
      text += "*0";
      await screen(student.phone, sessionId, text.replace(/\*0$/, i % 2 ? "*0" : "*1"));
    }
    expect(await screen(student.phone, sessionId, "4826*1")).toBe(
      "END This session has ended. Dial again.",
    );
  });
});

/** Every screen a caller can reach, by the choices that reach it from the main menu. */
const SCREENS: string[][] = [
  [],
  ["9"],
  ["1"],
  ["1", "7"],
  ["1", "0"],
  ["2"],
  ["2", "7"],
  ["3"],
  ["3", "7"],
  ["4"],
  ["4", "7"],
  ["5"],
  ["5", "7"],
  ["5", "0", "3", "0", "4", "0", "1"],
];

describe("every screen", () => {
  const LONG_NOTE =
    "Please drop EDU 211 – it clashes with GSE 201 – and add the “carry-over” you failed last session; see me in room 14 before Friday, or the HOD will not sign your form. ".repeat(
      3,
    );

  it.each(USSD_LANGUAGES)(
    "fits 182 characters and GSM-7 in %s, whatever the student's record holds, and changes nothing mid-menu",
    async (language: UssdLanguage) => {
      const { student } = await studentWithPin("4826");
      await registerBothSemesters(student.id, LONG_NOTE);
      const callers = [
        { phone: CHIAMAKA, id: await chiamakaId(), pin: DEMO_USSD_PIN },
        { phone: student.phone, id: student.id, pin: "4826" },
      ];
      for (const caller of callers) {
        await setUssdLanguage(api.db, caller.id, language);
        for (const choices of SCREENS) {
          // Past the per-phone limit's window: this walk asks for more screens than a caller would.
          api.clock.advance(10 * 60_000 + 1);
          const before = await footprint();
          const screens = await dial(caller.phone, choices, caller.pin);
          for (const text of screens) {
            expect(text.length, text).toBeLessThanOrEqual(SCREEN_LIMIT);
            expect(isGsm7(text), text).toBe(true);
            expect(text, text).not.toMatch(/[{}]/);
          }
          // Whole, down to its last line: only an adviser's note is ever cut to fit.
          expect(last(screens)).toMatch(/^CON [^]*\n0 [A-Za-z]+$/);
          // A session left here, as the network drops it, has changed nothing.
          expect(await footprint()).toEqual(before);
        }
      }
    },
    60_000,
  );

  it("shows the fees, registration and results the portal shows", async () => {
    const chiamaka = await chiamakaId();
    await setUssdLanguage(api.db, chiamaka, "en");
    const [fees] = (await dial(CHIAMAKA, ["1"])).slice(-1);
    expect(fees).toMatch(
      /^CON Fees 2024\/2025, 200 level\nPaid: NGN [\d,]+\nStill to pay: NGN [\d,]+/,
    );
    expect(last(await dial(CHIAMAKA, ["4"]))).toMatch(
      /^CON (Results 2023\/2024, 1st semester\nGPA \d\.\d\d\nCGPA \d\.\d\d|Your latest results show once your fees are paid\.)\n0 Back$/,
    );
    const { student } = await studentWithPin("4826");
    expect(last(await dial(student.phone, ["3"], "4826"))).toBe(
      "CON No courses registered for 2024/2025 yet.\n0 Back",
    );
    expect(last(await dial(student.phone, ["4"], "4826"))).toBe(
      "CON Results: not published yet.\n0 Back",
    );
  });
});

describe("the choices that end a session", () => {
  it("keeps a language chosen, and speaks it from the next session", async () => {
    const { student } = await studentWithPin("4826");
    const chosen = last(await dial(student.phone, ["5", "2"], "4826"));
    expect(chosen).toMatch(/^END /);
    const next = `ATUid_lang_${(sessionCount += 1)}`;
    expect(await screen(student.phone, next, "")).not.toBe(
      "CON Student Portal\nEnter your 4-digit USSD PIN:",
    );
    const account = await accountOf(student.id);
    expect(account!.language).toBe("ha");
    expect(last(await dial(student.phone, ["5", "1"], "4826"))).toBe(
      "END The menu is now in English.",
    );
  });

  it("says goodbye on 0", async () => {
    expect(last(await dial(CHIAMAKA, ["0"]))).toMatch(/^END /);
  });

  it("ends a session asked for past an ending choice", async () => {
    const { student } = await studentWithPin("4826");
    const sessionId = `ATUid_past_${(sessionCount += 1)}`;
    await screen(student.phone, sessionId, "");
    await screen(student.phone, sessionId, "4826");
    expect(await screen(student.phone, sessionId, "4826*0*1")).toBe(
      "END This session has ended. Dial again.",
    );
    expect(await screen(student.phone, sessionId, "4826*5*3*1")).toBe(
      "END This session has ended. Dial again.",
    );
    const account = await accountOf(student.id);
    expect(account!.language).toBe("en");
  });

  it("texts how to pay the fee chosen, as the Payment page's bank transfer, and moves no money", async () => {
    const { student } = await studentWithPin("4826");
    expect(last(await dial(student.phone, ["2"], "4826"))).toBe(
      "CON Pay fees 2024/2025. Choose:\n1 Full: NGN 120,000\n2 First installment: NGN 72,000\n0 Back",
    );
    const sent = last(await dial(student.phone, ["2", "1"], "4826"));
    const [payment] = await api.db
      .select()
      .from(payments)
      .where(eq(payments.studentId, student.id));
    expect(payment).toMatchObject({
      status: "pending",
      paymentOption: "full",
      amountKobo: 12_000_000,
    });
    expect(sent).toBe(
      `END We have sent how to pay NGN 120,000 to this phone by SMS. Ref ${payment!.reference}`,
    );
    const instructions = payment!.payInstructions as { account_number: string; bank_name: string };
    const texts = await textsTo(student.phone);
    expect(texts).toHaveLength(1);
    expect(texts[0]!.text).toMatch(
      new RegExp(
        `^Pay NGN 120,000 by transfer to ${instructions.account_number} ${instructions.bank_name} before .+\\. Ref ${payment!.reference}\\. Student Portal$`,
      ),
    );
    expect(last(await dial(student.phone, ["1"], "4826"))).toContain(
      "Last payment: NGN 120,000, waiting",
    );
  });

  it("texts a Remita RRR for a fee the bursary takes through Remita only", async () => {
    await api.db
      .update(feeSchedule)
      .set({ allowedGateways: ["remita"] })
      .where(and(eq(feeSchedule.level, 300), eq(feeSchedule.session, "2024/2025")));
    const student = await api.createStudent({ level: 300 });
    const token = await api.signIn(student.phone);
    await api.request("/student/ussd-pin", {
      method: "PUT",
      token,
      json: { pin: "4826", pin_again: "4826", password: "demo1234" },
    });
    expect(last(await dial(student.phone, ["2", "1"], "4826"))).toMatch(
      /^END We have sent how to pay NGN [\d,]+ to this phone by SMS\. Ref CCE-/,
    );
    const [payment] = await api.db
      .select()
      .from(payments)
      .where(eq(payments.studentId, student.id));
    expect(payment).toMatchObject({ gateway: "remita", status: "pending" });
    const rrr = payment!.gatewayReference!;
    const [sms] = await textsTo(student.phone);
    expect(sms!.text).toBe(
      `Pay NGN ${(payment!.amountKobo / 100).toLocaleString("en-NG")} with Remita RRR ${rrr.match(/\d{4}/g)!.join("-")} online or at any bank. Ref ${payment!.reference}. Student Portal`,
    );
  });

  it("shows the Payment page's refusal in its words, and starts nothing", async () => {
    const { student } = await studentWithPin("4826");
    // Ten payments started in half an hour: the eleventh is refused, by USSD as on the page.
    for (let i = 0; i < 10; i++) await dial(student.phone, ["2", "2"], "4826");
    const before = await footprint();
    const refused = last(await dial(student.phone, ["2", "1"], "4826"));
    expect(refused).toMatch(/^END You have started 10 payments in the last half hour\./);
    expect(refused.length).toBeLessThanOrEqual(SCREEN_LIMIT);
    expect((await footprint()).payments).toBe(before.payments);
  });

  it("tells a student whose fees are paid that there is nothing to pay", async () => {
    const { student } = await studentWithPin("4826");
    await paidInFull(student.id);
    expect(last(await dial(student.phone, ["2"], "4826"))).toBe(
      "CON Your fees for 2024/2025 are fully paid. Nothing to pay.\n0 Back",
    );
    expect(last(await dial(student.phone, ["1"], "4826"))).toBe(
      "CON Fees 2024/2025, 100 level\nPaid: NGN 120,000\nStill to pay: NGN 0\nLast payment: NGN 120,000, paid\n0 Back",
    );
  });
});

async function accountOf(studentId: number) {
  const [account] = await api.db
    .select()
    .from(ussdAccounts)
    .where(eq(ussdAccounts.studentId, studentId));
  return account;
}

async function chiamakaId() {
  const [row] = await api.db.select().from(students).where(eq(students.phone, CHIAMAKA));
  return row!.id;
}

/**
 * Two first-semester courses sent back by the adviser with `note`, and one second-semester course
 * waiting: the registration screen at its longest.
 */
async function registerBothSemesters(studentId: number, note: string) {
  const offered = await api.db
    .select({ id: courses.id, semester: courses.semester })
    .from(courses)
    .orderBy(asc(courses.id));
  const first = offered.filter((course) => course.semester === 1).slice(0, 2);
  const second = offered.filter((course) => course.semester === 2).slice(0, 1);
  await api.db.insert(courseRegistrations).values(
    [...first, ...second].map((course) => ({
      studentId,
      courseId: course.id,
      session: "2024/2025",
      level: 100,
      semester: course.semester,
    })),
  );
  const [adviser] = await api.db.select({ id: staff.id }).from(staff).limit(1);
  await api.db.insert(registrationReturns).values({
    studentId,
    session: "2024/2025",
    semester: 1,
    staffId: adviser!.id,
    note,
    returnedAt: api.clock.now(),
  });
}

/** The student's 2024/2025 fee credited in full, as a verified payment leaves it. */
async function paidInFull(studentId: number) {
  const [fee] = await api.db
    .select({ id: feeSchedule.id, amountKobo: feeSchedule.amountKobo })
    .from(feeSchedule)
    .where(
      and(
        eq(feeSchedule.paymentOption, "full"),
        eq(feeSchedule.level, 100),
        eq(feeSchedule.session, "2024/2025"),
      ),
    );
  await api.db.insert(payments).values({
    reference: `CCE-USSD-${studentId}`,
    studentId,
    feeId: fee!.id,
    paymentOption: "full",
    level: 100,
    session: "2024/2025",
    amountKobo: fee!.amountKobo,
    paidAmountKobo: fee!.amountKobo,
    status: "success",
    paidAt: api.clock.now(),
  });
}
