import { eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  academicSessions,
  courseRegistrations,
  courses,
  payments,
  registrationApprovals,
  registrationReturns,
  resultPublications,
  students,
} from "../db/schema.ts";
import { createApiHarness, type ApiHarness } from "../testing/api-harness.test-kit.ts";
import { createStaff } from "../staff/staff.test-kit.ts";
import { slipToken } from "../payments/slip-token.ts";
import { signToken } from "../verification/signed-token.ts";
import { ExamCardAnswer } from "../../common/results/exam-card.ts";

// Issue 32: the exam card of a semester of the current session (2024/2025 in the harness) is
// issued once the session's fee covers the semester and the adviser approved its registration;
// otherwise the answer names every gap and where to put it right (decision 181).

let api: ApiHarness;
let adviserId: number;
let examsId: number;
let courseIds: { first: number[]; second: number[] };
let sequence = 0;

beforeAll(async () => {
  api = await createApiHarness();
  adviserId = (await createStaff(api, { roles: ["adviser"] })).id;
  examsId = (await createStaff(api, { roles: ["exams"] })).id;
  const made = await api.db
    .insert(courses)
    .values([
      { code: "CRD 111", title: "Card Biology I", unit: 3, semester: 1 },
      { code: "CRD 112", title: "Card Chemistry I", unit: 2, semester: 1 },
      { code: "CRD 121", title: "Card Biology II", unit: 4, semester: 2 },
    ])
    .returning();
  courseIds = { first: [made[0]!.id, made[1]!.id], second: [made[2]!.id] };
});
afterAll(() => api.close());

type Person = Awaited<ReturnType<ApiHarness["createStudent"]>> & { token: string };

async function student(fields: Parameters<ApiHarness["createStudent"]>[0] = {}): Promise<Person> {
  sequence += 1;
  const person = await api.createStudent({
    surname: "Eze",
    othername: `Card ${sequence}`,
    matricNo: `CCE/2024/CRD/${String(sequence).padStart(4, "0")}`,
    ...fields,
  });
  return { ...person, token: await api.signIn(person.phone) };
}

const pay = (person: Person, option: "full" | "part" | "second_installment") =>
  api.db.insert(payments).values({
    reference: `CRD-${person.id}-${option}`,
    studentId: person.id,
    paymentOption: option,
    level: 100,
    session: "2024/2025",
    amountKobo: 12_000_000,
    status: "success",
  });

async function register(person: Person, semester: 1 | 2) {
  const ids = semester === 1 ? courseIds.first : courseIds.second;
  await api.db.insert(courseRegistrations).values(
    ids.map((courseId) => ({
      studentId: person.id,
      courseId,
      session: "2024/2025",
      level: 100,
      semester,
    })),
  );
}

const approve = (person: Person, semester: 1 | 2) =>
  api.db
    .insert(registrationApprovals)
    .values({ studentId: person.id, session: "2024/2025", semester, staffId: adviserId });

async function card(person: Person, query = ""): Promise<ExamCardAnswer> {
  const response = await api.request(`/student/exam-card${query}`, { token: person.token });
  expect(response.status).toBe(200);
  return ExamCardAnswer.parse((await response.json()).data);
}

const gaps = (answer: ExamCardAnswer) => (answer.issued ? [] : answer.missing.map((m) => m.gap));
const verify = (token: string) =>
  api.app.request(`/exam-cards/verify/${encodeURIComponent(token)}`);
const tokenOf = (url: string) => url.split("/verify/exam-card/")[1]!;

describe("GET /student/exam-card refuses, saying what is missing", () => {
  it("nothing paid, nothing registered: both, with links to Payments and Course Registration", async () => {
    const answer = await card(await student());
    expect(answer).toEqual({
      issued: false,
      session: "2024/2025",
      semester: 1,
      missing: [
        {
          gap: "fee_not_paid",
          message:
            "Your 2024/2025 school fees are not paid. The exam card is issued once they are.",
          href: "/payment",
          link_label: "Go to Payments",
        },
        {
          gap: "registration_not_submitted",
          message:
            "You have not registered any courses for the first semester of 2024/2025. Register them and your course adviser approves them.",
          href: "/course-reg",
          link_label: "Go to Course Registration",
        },
      ],
    });
  });

  it("fee paid, registration waiting for the adviser: the wait alone", async () => {
    const person = await student();
    await pay(person, "full");
    await register(person, 1);
    const answer = await card(person);
    expect(gaps(answer)).toEqual(["registration_pending"]);
    expect(answer.issued === false && answer.missing[0]!.href).toBe("/course-reg");
  });

  it("registration approved, fee not paid: the fee alone", async () => {
    const person = await student();
    await register(person, 1);
    await approve(person, 1);
    expect(gaps(await card(person))).toEqual(["fee_not_paid"]);
  });

  it("registration returned by the adviser: the adviser's note", async () => {
    const person = await student();
    await pay(person, "full");
    await register(person, 1);
    await api.db.insert(registrationReturns).values({
      studentId: person.id,
      session: "2024/2025",
      semester: 1,
      staffId: adviserId,
      note: "Add GSE 111, it is compulsory.",
      returnedAt: new Date(),
    });
    const answer = await card(person);
    expect(gaps(answer)).toEqual(["registration_returned"]);
    expect(answer.issued === false && answer.missing[0]!.message).toContain(
      "“Add GSE 111, it is compulsory.”",
    );
  });

  it("first installment only: the first semester's card, not the second's", async () => {
    const person = await student();
    await pay(person, "part");
    for (const semester of [1, 2] as const) {
      await register(person, semester);
      await approve(person, semester);
    }
    expect((await card(person, "?semester=1")).issued).toBe(true);
    const second = await card(person, "?semester=2");
    expect(gaps(second)).toEqual(["second_installment"]);
    await pay(person, "second_installment");
    expect((await card(person, "?semester=2")).issued).toBe(true);
  });

  it.each([["?semester=3"], ["?semester=first"], ["?semester="]])(
    "refuses a semester that is not 1 or 2 (%s) with 400",
    async (query) => {
      const person = await student();
      const response = await api.request(`/student/exam-card${query}`, { token: person.token });
      expect(response.status).toBe(400);
      expect((await response.json()).error.fields).toHaveProperty("semester");
    },
  );

  it("needs a signed-in student", async () => {
    expect((await api.request("/student/exam-card")).status).toBe(401);
  });
});

describe("GET /student/exam-card issues the card", () => {
  let person: Person;
  let issued: Extract<ExamCardAnswer, { issued: true }>;

  beforeAll(async () => {
    const photo = await api.deps.photos.save(
      await sharp({
        create: { width: 40, height: 48, channels: 3, background: "#5b6b7c" },
      })
        .jpeg()
        .toBuffer(),
      "jpg",
    );
    person = await student({ photo });
    await pay(person, "full");
    await register(person, 1);
    await approve(person, 1);
    const answer = await card(person);
    if (!answer.issued) throw new Error(`no card: ${JSON.stringify(answer)}`);
    issued = answer;
  });

  it("with the registered courses, the student, the programme, level, session and photo", () => {
    expect(issued.card).toEqual({
      name: `Eze ${person.othername}`,
      matric_no: person.matricNo,
      programme: "NCE Biology/Chemistry",
      level: 100,
      session: "2024/2025",
      semester: 1,
      courses: [
        { code: "CRD 111", title: "Card Biology I", units: 3 },
        { code: "CRD 112", title: "Card Chemistry I", units: 2 },
      ],
      total_units: 5,
      passport: expect.stringMatching(/^data:image\/jpeg;base64,/),
    });
    expect(issued.verify_url).toMatch(
      /^http:\/\/localhost:4321\/verify\/exam-card\/[\w-]+\.[\w-]{22}$/,
    );
  });

  it("is for the first semester until the programme's first semester is published, then the second", async () => {
    expect(issued.semester).toBe(1);
    const [publication] = await api.db
      .insert(resultPublications)
      .values({
        programmeId: person.programmeId,
        session: "2024/2025",
        semester: 1,
        boardMeetingOn: "2025-03-14",
        minuteReference: "AB/CARD/1",
        publishedBy: examsId,
        publishedAt: new Date(),
      })
      .returning();
    try {
      const answer = await card(person);
      expect(answer.semester).toBe(2);
      expect(gaps(answer)).toEqual(["registration_not_submitted"]);
      // The student can still ask for the first semester's card by name.
      expect((await card(person, "?semester=1")).issued).toBe(true);
    } finally {
      await api.db.delete(resultPublications).where(eq(resultPublications.id, publication!.id));
    }
  });

  it("verifies without signing in: the card as printed, photo included", async () => {
    const response = await verify(tokenOf(issued.verify_url));
    expect(response.status).toBe(200);
    expect((await response.json()).data).toEqual(issued.card);
  });

  const key = () => api.deps.slipSigningKey;
  const subject = () => `${person.id}:2024/2025:1`;
  it.each([
    ["signed with another key", () => signToken("exam-card", subject(), "not-the-college-key")],
    ["made for printed results", () => signToken("results", subject(), key())],
    ["of a payment slip", () => slipToken("school-fee", `CRD-${person.id}-full`, key())],
    ["for another semester", () => signToken("exam-card", `${person.id}:2024/2025:2`, key())],
    ["for another student", () => signToken("exam-card", "999999:2024/2025:1", key())],
    [
      "for a student id out of range",
      () => signToken("exam-card", "9999999999:2024/2025:1", key()),
    ],
    ["naming no semester", () => signToken("exam-card", `${person.id}`, key())],
    ["altered", () => tokenOf(issued.verify_url).replace(/.$/, (c) => (c === "A" ? "B" : "A"))],
    [
      "with its payload swapped",
      () =>
        `${signToken("exam-card", `${person.id + 1}:2024/2025:1`, key()).split(".")[0]}.${
          tokenOf(issued.verify_url).split(".")[1]
        }`,
    ],
    ["of rubbish", () => "../../etc/passwd"],
    ["overlong", () => "x".repeat(500)],
  ])("says 'not genuine' for a token %s with 404, never a 500", async (_case, token) => {
    const response = await verify(token());
    expect(response.status).toBe(404);
    expect((await response.json()).message).toMatch(/^This exam card could not be verified\./);
  });

  it("an exam card's token opens no slip's check", async () => {
    const response = await api.app.request(`/slips/verify/${tokenOf(issued.verify_url)}`);
    expect(response.status).toBe(404);
  });

  it("stops verifying once the card no longer holds (the approval is withdrawn)", async () => {
    await api.db
      .delete(registrationApprovals)
      .where(eq(registrationApprovals.studentId, person.id));
    try {
      expect((await verify(tokenOf(issued.verify_url))).status).toBe(404);
    } finally {
      await approve(person, 1);
    }
    expect((await verify(tokenOf(issued.verify_url))).status).toBe(200);
  });

  it("keeps a level registered apart from the student's present level", async () => {
    await api.db.update(students).set({ level: 200 }).where(eq(students.id, person.id));
    const answer = await card(person);
    expect(answer.issued && answer.card.level).toBe(100);
  });
});

// Last: it takes the current session away from the whole harness.
describe("with no current session", () => {
  it("says no card can be issued yet", async () => {
    const person = await student();
    await api.db.update(academicSessions).set({ isCurrent: false });
    expect(await card(person)).toMatchObject({
      issued: false,
      session: null,
      missing: [{ gap: "no_session", href: null }],
    });
  });
});
