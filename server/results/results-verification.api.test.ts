import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  courseOfferings,
  courseRegistrations,
  courseScores,
  courses,
  payments,
  registrationApprovals,
  resultPublications,
} from "../db/schema.ts";
import { createApiHarness, type ApiHarness } from "../testing/api-harness.test-kit.ts";
import { createStaff } from "../staff/staff.test-kit.ts";
import { slipToken } from "../payments/slip-token.ts";
import { signToken } from "../verification/signed-token.ts";
import { MyResults } from "../../common/results/score-sheets.ts";
import { ResultsCheck } from "../../common/results/exam-card.ts";

// The QR on printed results opens a public check (issue 32): the student, programme and each
// semester they can see with its GPA and CGPA, nothing unpublished and nothing withheld.

let api: ApiHarness;
let paid: Awaited<ReturnType<ApiHarness["createStudent"]>>;
let unpaid: Awaited<ReturnType<ApiHarness["createStudent"]>>;
let paidResults: MyResults;

beforeAll(async () => {
  api = await createApiHarness();
  const lecturer = await createStaff(api, { roles: ["lecturer"] });
  const exams = await createStaff(api, { roles: ["exams"] });
  paid = await api.createStudent({ surname: "Adeyemi", othername: "Tolu", matricNo: "CCE/V/1" });
  unpaid = await api.createStudent({ surname: "Bako", othername: "Sani", matricNo: "CCE/V/2" });
  // Two first-semester courses, both approved, A (3 units) and C (2 units): GPA 4.2. A second
  // semester course approved but not published stays out of every answer.
  const made = await api.db
    .insert(courses)
    .values([
      { code: "VER 111", title: "Verified I", unit: 3, semester: 1 },
      { code: "VER 112", title: "Verified II", unit: 2, semester: 1 },
      { code: "VER 121", title: "Unpublished", unit: 2, semester: 2 },
    ])
    .returning();
  const marks: [number, number][] = [
    [35, 40],
    [20, 32],
    [30, 30],
  ];
  for (const [index, course] of made.entries()) {
    const [offering] = await api.db
      .insert(courseOfferings)
      .values({
        courseId: course.id,
        session: "2024/2025",
        semester: course.semester,
        departmentId: api.school.departments[0]!.id,
        status: "approved",
      })
      .returning();
    for (const person of [paid, unpaid]) {
      await api.db.insert(courseRegistrations).values({
        studentId: person.id,
        courseId: course.id,
        session: "2024/2025",
        level: 100,
        semester: course.semester,
      });
      await api.db.insert(courseScores).values({
        offeringId: offering!.id,
        studentId: person.id,
        ca: marks[index]![0],
        exam: marks[index]![1],
        enteredBy: lecturer.id,
        updatedAt: new Date(),
      });
    }
  }
  for (const person of [paid, unpaid])
    for (const semester of [1, 2])
      await api.db
        .insert(registrationApprovals)
        .values({ studentId: person.id, session: "2024/2025", semester, approvedBy: "Adviser" });
  await api.db.insert(resultPublications).values({
    programmeId: paid.programmeId,
    session: "2024/2025",
    semester: 1,
    boardMeetingOn: "2025-03-14",
    minuteReference: "AB/VER/1",
    publishedBy: exams.id,
    publishedAt: new Date(),
  });
  await api.db.insert(payments).values({
    reference: "VER-PAID-1",
    studentId: paid.id,
    paymentOption: "full",
    level: 100,
    session: "2024/2025",
    amountKobo: 12_000_000,
    status: "success",
  });
  const response = await api.request("/student/results", { token: await api.signIn(paid.phone) });
  paidResults = MyResults.parse((await response.json()).data);
});
afterAll(() => api.close());

const verify = (token: string) => api.app.request(`/results/verify/${encodeURIComponent(token)}`);
const tokenOf = (url: string) => url.split("/verify/results/")[1]!;

describe("the QR link on printed results", () => {
  it("comes with results the student can see, and not while nothing is shown", async () => {
    expect(paidResults.semesters).toHaveLength(1);
    expect(paidResults.verify_url).toMatch(
      /^http:\/\/localhost:4321\/verify\/results\/[\w-]+\.[\w-]{22}$/,
    );
    const withheld = await api.request("/student/results", {
      token: await api.signIn(unpaid.phone),
    });
    const data = MyResults.parse((await withheld.json()).data);
    expect(data.withheld).toHaveLength(1);
    expect(data.verify_url).toBeNull();
  });

  it("opens, without signing in, who the results belong to and each published semester's GPA and CGPA", async () => {
    const response = await verify(tokenOf(paidResults.verify_url!));
    expect(response.status).toBe(200);
    expect(ResultsCheck.strict().parse((await response.json()).data)).toEqual({
      name: "Adeyemi Tolu",
      matric_no: "CCE/V/1",
      programme: "NCE Biology/Chemistry",
      semesters: [{ session: "2024/2025", semester: 1, units: 5, gpa: 4.2, cgpa: 4.2 }],
    });
  });

  it("shows nothing a student could not see: a semester withheld for fees is left out", async () => {
    const response = await verify(signToken("results", String(unpaid.id), api.deps.slipSigningKey));
    expect(response.status).toBe(200);
    expect((await response.json()).data).toMatchObject({ name: "Bako Sani", semesters: [] });
  });

  const key = () => api.deps.slipSigningKey;
  it.each([
    ["signed with another key", () => signToken("results", String(paid.id), "another-key")],
    ["made for an exam card", () => signToken("exam-card", `${paid.id}:2024/2025:1`, key())],
    ["of a payment slip", () => slipToken("school-fee", "VER-PAID-1", key())],
    ["for a student who does not exist", () => signToken("results", "987654", key())],
    ["naming no student", () => signToken("results", "tolu", key())],
    [
      "altered",
      () => tokenOf(paidResults.verify_url!).replace(/.$/, (c) => (c === "A" ? "B" : "A")),
    ],
    [
      "naming another student under the same signature",
      () =>
        `${Buffer.from(`results:${unpaid.id}`).toString("base64url")}.${
          tokenOf(paidResults.verify_url!).split(".")[1]
        }`,
    ],
    ["of rubbish", () => "%00%00"],
    ["overlong", () => "y".repeat(500)],
  ])("says 'not genuine' for a token %s with 404, never a 500", async (_case, token) => {
    const response = await verify(token());
    expect(response.status).toBe(404);
    expect((await response.json()).message).toMatch(/^These results could not be verified\./);
  });

  it("a results token opens neither a slip's check nor an exam card's", async () => {
    const token = tokenOf(paidResults.verify_url!);
    expect((await api.app.request(`/slips/verify/${token}`)).status).toBe(404);
    expect((await api.app.request(`/exam-cards/verify/${token}`)).status).toBe(404);
  });
});
