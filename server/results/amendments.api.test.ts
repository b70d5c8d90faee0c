import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { courseOfferings, courseScores, payments, scoreAmendments } from "../db/schema.ts";
import { createApiHarness, type ApiHarness } from "../testing/api-harness.test-kit.ts";
import { createStaff, staffSignIn } from "../staff/staff.test-kit.ts";
import { readOutbox } from "../mail/outbox.ts";
import { createResultsKit } from "./results.test-kit.ts";

let api: ApiHarness;
let kit: Awaited<ReturnType<typeof createResultsKit>>;
let head: { id: number; token: string };
let exams: string;
let headName: string;
let examsName: string;
let lecturer: Awaited<ReturnType<Awaited<ReturnType<typeof createResultsKit>>["lecturer"]>>;
let offering: number;
let student: Awaited<ReturnType<ApiHarness["createStudent"]>>;

const propose = (json: Record<string, unknown>, token = lecturer.token) =>
  api.request(`/staff/results/offerings/${offering}/amendments`, {
    method: "POST",
    token,
    json: {
      student_id: student.id,
      ca: 30,
      exam: 44,
      special: null,
      reason: "Exam script re-marked: page 4 was not added.",
      ...json,
    },
  });
const decide = (id: number, as: "hod" | "exams", json: Record<string, unknown>, token: string) =>
  api.request(`/staff/results/amendments/${id}/${as}`, { method: "POST", token, json });

beforeAll(async () => {
  api = await createApiHarness();
  kit = await createResultsKit(api);
  const hod = await createStaff(api, { roles: ["hod"] });
  head = { id: hod.id, token: await staffSignIn(api, hod) };
  headName = hod.name;
  await api.request("/staff/results/department-heads", {
    method: "POST",
    token: kit.registryToken,
    json: { department_id: kit.department.id, staff_id: hod.id },
  });
  const officer = await createStaff(api, { roles: ["exams"], totp: true });
  examsName = officer.name;
  exams = await staffSignIn(api, officer);
  lecturer = await kit.lecturer();
  const { course, students } = await kit.courseWithStudents({ approved: 1, units: 2 });
  student = students[0]!;
  offering = await kit.offeringOf(course.id, [lecturer.member.id]);
  await kit.save(lecturer.token, offering, [{ student_id: student.id, ca: 30, exam: 39 }]); // 69 B
  await kit.submit(lecturer.token, offering);
  await api.request(`/staff/results/review/${offering}/approve`, {
    method: "POST",
    token: head.token,
  });
  await api.db.insert(payments).values({
    reference: `AMEND-PAID-${student.id}`,
    studentId: student.id,
    paymentOption: "full",
    level: 100,
    session: "2024/2025",
    amountKobo: 12_000_000,
    status: "success",
  });
});
afterAll(() => api.close());

describe("amending a published score", () => {
  it("is refused before publication: the score sheet or a return is the way then", async () => {
    const response = await propose({});
    expect(response.status).toBe(409);
    expect((await response.json()).message).toBe(
      "This result is not published yet: change it on the score sheet, or ask the head of department to return it.",
    );
    const published = await api.request("/staff/results/publish", {
      method: "POST",
      token: exams,
      json: {
        programme_id: api.school.programmes[0]!.id,
        session: "2024/2025",
        semester: 1,
        board_meeting_on: "2025-03-14",
        minute_reference: "AB/2025/03/7",
      },
    });
    expect(published.status).toBe(200);
  });

  it("refuses a score outside the scheme, the same score, no reason, and a second one under way", async () => {
    expect((await propose({ exam: 61 })).status).toBe(400);
    const same = await propose({ exam: 39 });
    expect(same.status).toBe(400);
    expect((await same.json()).message).toBe("The new score is the same as the published one.");
    expect((await propose({ reason: "" })).status).toBe(400);
    expect(await api.db.select().from(scoreAmendments)).toEqual([]);

    expect((await propose({})).status).toBe(200);
    const second = await propose({ exam: 45 });
    expect(second.status).toBe(409);
    expect((await second.json()).message).toBe(
      "An amendment of this student's score is already waiting for approval.",
    );
  });

  it("needs the head of department, then another person at the exams office, before the score changes", async () => {
    const [amendment] = await api.db.select().from(scoreAmendments);
    const id = amendment!.id;
    const early = await decide(id, "exams", { approve: true }, exams);
    expect(early.status).toBe(409);

    const otherHead = await createStaff(api, { roles: ["hod"] });
    expect(
      (await decide(id, "hod", { approve: true }, await staffSignIn(api, otherHead))).status,
    ).toBe(404);
    expect((await decide(id, "hod", { approve: true }, head.token)).status).toBe(200);
    const waiting = await api.request("/staff/results/amendments", { token: exams });
    expect((await waiting.json()).data).toEqual([
      expect.objectContaining({
        id,
        status: "endorsed",
        from: "30 / 39",
        to: "30 / 44",
        proposed_by: lecturer.member.name,
        endorsed_by: headName,
        applied_by: null,
      }),
    ]);
    expect((await decide(id, "exams", { approve: false }, exams)).status).toBe(400);

    const [score] = await api.db
      .select()
      .from(courseScores)
      .where(eq(courseScores.offeringId, offering));
    expect(score).toMatchObject({ ca: 30, exam: 39 });

    const applied = await decide(id, "exams", { approve: true }, exams);
    expect(applied.status).toBe(200);
    const [after] = await api.db
      .select()
      .from(courseScores)
      .where(eq(courseScores.offeringId, offering));
    expect(after).toMatchObject({ ca: 30, exam: 44 });
  });

  it("tells the student, recomputes their GPA, and keeps the change on their results for good", async () => {
    await api.deliverMail();
    const mail = (await readOutbox(api.outboxDir)).find((message) => message.to === student.email);
    expect(mail?.subject).toMatch(/^Your RES \d+ result for 2024\/2025 was amended$/);
    expect(mail?.text).toContain("CA / exam: 30 / 39 → 30 / 44");

    const token = await api.signIn(student.phone);
    const { data } = await (await api.request("/student/results", { token })).json();
    const [course] = data.semesters[0].courses;
    expect(course).toMatchObject({ total: 74, grade: "A", point: 5 });
    expect(course.amendments).toEqual([
      {
        from: "30 / 39",
        to: "30 / 44",
        reason: "Exam script re-marked: page 4 was not added.",
        applied_at: expect.any(String),
      },
    ]);
    expect(data.semesters[0].gpa).toBe(5);
  });

  it("is never approved by the person who proposed it", async () => {
    const both = await createStaff(api, { roles: ["lecturer", "hod"] });
    const token = await staffSignIn(api, both);
    await api.request("/staff/results/department-heads", {
      method: "POST",
      token: kit.registryToken,
      json: { department_id: kit.department.id, staff_id: both.id },
    });
    const [row] = await api.db
      .select()
      .from(courseOfferings)
      .where(eq(courseOfferings.id, offering));
    await kit.assign(row!.courseId, [lecturer.member.id, both.id]);
    const proposed = await propose(
      { exam: 50, reason: "Second marker's score agreed at the board." },
      token,
    );
    expect(proposed.status).toBe(200);
    const { id } = (await proposed.json()).data;
    const own = await decide(id, "hod", { approve: true }, token);
    expect(own.status).toBe(403);
    expect((await own.json()).message).toBe(
      "An amendment needs another person's approval than yours.",
    );
  });

  it("lists what waits for each role, and what each person proposed or decided", async () => {
    // The head endorsed the applied amendment: it stays on their list, decided, with who applied it.
    const forHead = (
      await (await api.request("/staff/results/amendments", { token: head.token })).json()
    ).data;
    expect(forHead).toEqual([
      expect.objectContaining({ status: "applied", endorsed_by: headName, applied_by: examsName }),
    ]);
    const otherHead = await createStaff(api, { roles: ["hod"] });
    const forOtherHead = (
      await (
        await api.request("/staff/results/amendments", {
          token: await staffSignIn(api, otherHead),
        })
      ).json()
    ).data;
    expect(forOtherHead).toEqual([]);
    const forLecturer = (
      await (await api.request("/staff/results/amendments", { token: lecturer.token })).json()
    ).data;
    expect(forLecturer.map((row: { status: string }) => row.status)).toEqual(["applied"]);
  });
});
