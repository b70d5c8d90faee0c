import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, courseOfferings, courseScores } from "../db/schema.ts";
import { createApiHarness, type ApiHarness } from "../testing/api-harness.test-kit.ts";
import { createStaff } from "../staff/staff.test-kit.ts";
import { createResultsKit } from "./results.test-kit.ts";

let api: ApiHarness;
let kit: Awaited<ReturnType<typeof createResultsKit>>;
beforeAll(async () => {
  api = await createApiHarness();
  kit = await createResultsKit(api);
});
afterAll(() => api.close());

const scoresOf = (offeringId: number) =>
  api.db.select().from(courseScores).where(eq(courseScores.offeringId, offeringId));

describe("the registry assigns lecturers to a course's offering", () => {
  it("creates the offering once, replaces its lecturers later, and audits both", async () => {
    const one = await kit.lecturer();
    const two = await kit.lecturer();
    const { course } = await kit.courseWithStudents({ approved: 1 });
    const first = await kit.offeringOf(course.id, [one.member.id]);
    const again = await kit.offeringOf(course.id, [one.member.id, two.member.id]);
    expect(again).toBe(first);
    const teaching = await api.request("/staff/results/teaching", { token: two.token });
    expect((await teaching.json()).data.map((row: { id: number }) => row.id)).toContain(first);
    const audits = await api.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, "course_result"), eq(auditLog.entityId, String(first))));
    expect(audits.map((row) => row.after)).toEqual([
      expect.objectContaining({ lecturers: [one.member.id] }),
      expect.objectContaining({ lecturers: [one.member.id, two.member.id].sort((a, b) => a - b) }),
    ]);
  });

  it("refuses someone without an active lecturer account, a course of the other semester, and an unknown course", async () => {
    const { course } = await kit.courseWithStudents({ approved: 0 });
    const adviser = await createStaff(api, { roles: ["adviser"] });
    const gone = await createStaff(api, { roles: ["lecturer"], active: false });
    for (const ids of [[adviser.id], [gone.id]]) {
      const response = await kit.assign(course.id, ids);
      expect(response.status).toBe(400);
      expect((await response.json()).message).toBe(
        "Choose lecturers from the list: each must have an active lecturer account.",
      );
    }
    const lecturer = await kit.lecturer();
    const wrongSemester = await api.request("/staff/results/offerings", {
      method: "POST",
      token: kit.registryToken,
      json: {
        course_id: course.id,
        session: "2024/2025",
        semester: 2,
        department_id: kit.department.id,
        lecturer_ids: [lecturer.member.id],
      },
    });
    expect(wrongSemester.status).toBe(400);
    expect((await wrongSemester.json()).message).toBe(
      `${course.code} is a semester 1 course; choose semester 1.`,
    );
    expect((await kit.assign(999_999, [lecturer.member.id])).status).toBe(400);
    expect(
      await api.db.select().from(courseOfferings).where(eq(courseOfferings.courseId, course.id)),
    ).toEqual([]);
  });
});

describe("a lecturer's score sheet", () => {
  it("lists only approved registrations, grades what is entered by the NCE scale, and saves as the lecturer goes", async () => {
    const { member, token } = await kit.lecturer();
    const { course, students } = await kit.courseWithStudents({ approved: 3, waiting: 1 });
    const id = await kit.offeringOf(course.id, [member.id]);

    const [a, b, c] = students;
    const saved = await kit.save(token, id, [
      { student_id: a!.id, ca: 30, exam: 40 },
      { student_id: b!.id, ca: 25, exam: "" },
      { student_id: c!.id, ca: 20, special: "ABS" },
    ]);
    expect(saved.status).toBe(200);
    expect((await saved.json()).message).toBe("3 scores saved");

    const body = await (await kit.sheet(token, id)).json();
    expect(body.data).toMatchObject({
      offering: { course_code: course.code, status: "open", units: 3 },
      ca_max: 40,
      exam_max: 60,
      may_edit: true,
    });
    expect(body.data.rows).toEqual([
      expect.objectContaining({ student_id: a!.id, total: 70, grade: "A", point: 5 }),
      expect.objectContaining({ student_id: b!.id, ca: 25, exam: null, grade: null }),
      expect.objectContaining({ student_id: c!.id, special: "ABS", grade: "ABS", point: 0 }),
    ]);

    const again = await kit.save(token, id, [{ student_id: a!.id, ca: 30, exam: 40 }]);
    expect((await again.json()).message).toBe("Nothing changed");
  });

  it("refuses the whole save when one row is wrong, saying which, and writes nothing", async () => {
    const { member, token } = await kit.lecturer();
    const { course, students } = await kit.courseWithStudents({ approved: 2, waiting: 1 });
    const id = await kit.offeringOf(course.id, [member.id]);
    const [a, b, waiting] = students;
    const response = await kit.save(token, id, [
      { student_id: a!.id, ca: 30, exam: 40 },
      { student_id: b!.id, ca: 41, exam: 10 },
      { student_id: waiting!.id, ca: 10, exam: 10 },
    ]);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      message: "2 rows need correcting; nothing was saved.",
      error: {
        fields: {
          "scores.1": "CA must be a whole number from 0 to 40.",
          "scores.2": "This student is not registered (and approved) for this course.",
        },
      },
    });
    expect(await scoresOf(id)).toEqual([]);
  });

  it.each([
    [{ ca: 10, exam: 61 }, "Exam must be a whole number from 0 to 60."],
    [{ ca: 12.5, exam: 10 }, "CA must be a whole number."],
    [
      { ca: 10, exam: 20, special: "S" },
      "Enter an exam score or a special mark (ABS, I, S), not both.",
    ],
    [{ ca: 10, special: "X" }, "A special mark is ABS, I or S."],
  ])("refuses %j with a clear message", async (row, message) => {
    const { member, token } = await kit.lecturer();
    const { course, students } = await kit.courseWithStudents({ approved: 1 });
    const id = await kit.offeringOf(course.id, [member.id]);
    const response = await kit.save(token, id, [{ student_id: students[0]!.id, ...row }]);
    expect(response.status).toBe(400);
    expect(JSON.stringify(await response.json())).toContain(message);
    expect(await scoresOf(id)).toEqual([]);
  });

  it("is not there for a lecturer who does not teach the course", async () => {
    const teacher = await kit.lecturer();
    const other = await kit.lecturer();
    const { course, students } = await kit.courseWithStudents({ approved: 1 });
    const id = await kit.offeringOf(course.id, [teacher.member.id]);
    expect((await kit.sheet(other.token, id)).status).toBe(404);
    const save = await kit.save(other.token, id, [{ student_id: students[0]!.id, ca: 1, exam: 1 }]);
    expect(save.status).toBe(404);
    expect((await kit.submit(other.token, id)).status).toBe(404);
    expect(await scoresOf(id)).toEqual([]);
  });
});

describe("submitting a result to the head of department", () => {
  it("needs an exam score or special mark for every student, then closes the sheet to its lecturers", async () => {
    const { member, token } = await kit.lecturer();
    const { course, students } = await kit.courseWithStudents({ approved: 2 });
    const id = await kit.offeringOf(course.id, [member.id]);
    const [a, b] = students;
    await kit.save(token, id, [{ student_id: a!.id, ca: 30, exam: 40 }]);

    const early = await kit.submit(token, id);
    expect(early.status).toBe(409);
    expect((await early.json()).message).toBe(
      `1 student has no exam score or special mark yet (${b!.matricNo}). Enter them before submitting.`,
    );

    await kit.save(token, id, [{ student_id: b!.id, ca: null, special: "S" }]);
    const done = await kit.submit(token, id);
    expect(done.status).toBe(200);
    expect((await done.json()).message).toBe("Result submitted to the head of department");

    const sheet = (await (await kit.sheet(token, id)).json()).data;
    expect(sheet).toMatchObject({ offering: { status: "submitted" }, may_edit: false });
    const late = await kit.save(token, id, [{ student_id: a!.id, ca: 40, exam: 60 }]);
    expect(late.status).toBe(409);
    expect((await late.json()).message).toBe(
      "This result has been submitted to the head of department: it can no longer be changed here.",
    );
    expect((await kit.submit(token, id)).status).toBe(409);
    expect(await scoresOf(id)).toContainEqual(
      expect.objectContaining({ studentId: a!.id, ca: 30, exam: 40 }),
    );
  });

  it("refuses a course no approved student is registered for", async () => {
    const { member, token } = await kit.lecturer();
    const { course } = await kit.courseWithStudents({ approved: 0, waiting: 2 });
    const id = await kit.offeringOf(course.id, [member.id]);
    const response = await kit.submit(token, id);
    expect(response.status).toBe(409);
    expect((await response.json()).message).toBe(
      "No student is registered (and approved) for this course yet.",
    );
  });
});
