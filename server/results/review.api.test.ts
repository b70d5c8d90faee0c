import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  auditLog,
  courseOfferings,
  courseRegistrations,
  courseScores,
  departmentHeads,
  departments,
  registrationApprovals,
} from "../db/schema.ts";
import { createApiHarness, type ApiHarness } from "../testing/api-harness.test-kit.ts";
import { createStaff, staffSignIn } from "../staff/staff.test-kit.ts";
import { createResultsKit } from "./results.test-kit.ts";

let api: ApiHarness;
let kit: Awaited<ReturnType<typeof createResultsKit>>;
let head: { id: number; token: string };
beforeAll(async () => {
  api = await createApiHarness();
  kit = await createResultsKit(api);
  const member = await createStaff(api, { roles: ["hod"] });
  head = { id: member.id, token: await staffSignIn(api, member) };
  const named = await nameHead(kit.department.id, member.id);
  if (named.status !== 200) throw new Error(`could not name the head: ${named.status}`);
});
afterAll(() => api.close());

const nameHead = (departmentId: number, staffId: number) =>
  api.request("/staff/results/department-heads", {
    method: "POST",
    token: kit.registryToken,
    json: { department_id: departmentId, staff_id: staffId },
  });

/** A course whose lecturer entered `marks` ([ca, exam] per student) and submitted it. */
async function submitted(marks: [number, number][]) {
  const lecturer = await kit.lecturer();
  const { course, students } = await kit.courseWithStudents({ approved: marks.length });
  const id = await kit.offeringOf(course.id, [lecturer.member.id]);
  await kit.save(
    lecturer.token,
    id,
    marks.map(([ca, exam], i) => ({ student_id: students[i]!.id, ca, exam })),
  );
  const response = await kit.submit(lecturer.token, id);
  if (response.status !== 200) throw new Error(`submit failed: ${response.status}`);
  return { id, course, students, lecturer };
}

const review = (id: number, token = head.token) =>
  api.request(`/staff/results/review/${id}`, { token });
const approve = (id: number, token = head.token) =>
  api.request(`/staff/results/review/${id}/approve`, { method: "POST", token });
const sendBack = (id: number, note: unknown, token = head.token) =>
  api.request(`/staff/results/review/${id}/return`, { method: "POST", token, json: { note } });

describe("naming a department's head", () => {
  it("takes only an active head-of-department account, and audits the change", async () => {
    const adviser = await createStaff(api, { roles: ["adviser"] });
    const refused = await nameHead(kit.department.id, adviser.id);
    expect(refused.status).toBe(400);
    expect((await refused.json()).message).toBe(
      "Choose a head from the list: they need an active head of department account.",
    );
    const [row] = await api.db
      .select()
      .from(departmentHeads)
      .where(eq(departmentHeads.departmentId, kit.department.id));
    expect(row!.staffId).toBe(head.id);
    const audits = await api.db
      .select()
      .from(auditLog)
      .where(
        and(
          eq(auditLog.action, "department.head"),
          eq(auditLog.entityId, String(kit.department.id)),
        ),
      );
    expect(audits).toHaveLength(1);
  });
});

describe("a head of department's review", () => {
  it("shows the grade distribution, the mean, and the same course's means in earlier sessions", async () => {
    const { id, course } = await submitted([
      [30, 45], // 75 A
      [30, 35], // 65 B
      [20, 25], // 45 D
      [10, 20], // 30 F
    ]);
    // The same course two sessions before, approved with a mean total of 50.
    const [old] = await api.db
      .insert(courseOfferings)
      .values({
        courseId: course.id,
        session: "2022/2023",
        semester: 1,
        departmentId: kit.department.id,
        status: "approved",
      })
      .returning();
    const earlierStudent = await api.createStudent();
    await api.db.insert(courseRegistrations).values({
      studentId: earlierStudent.id,
      courseId: course.id,
      session: "2022/2023",
      level: 100,
      semester: 1,
    });
    await api.db.insert(registrationApprovals).values({
      studentId: earlierStudent.id,
      session: "2022/2023",
      semester: 1,
      approvedBy: "Adviser",
    });
    await api.db.insert(courseScores).values({
      offeringId: old!.id,
      studentId: earlierStudent.id,
      ca: 20,
      exam: 30,
      enteredBy: kit.registry.id,
      updatedAt: new Date(),
    });

    const response = await review(id);
    expect(response.status).toBe(200);
    const { data } = await response.json();
    expect(data.distribution).toEqual({
      counts: [
        { grade: "A", count: 1 },
        { grade: "B", count: 1 },
        { grade: "C", count: 0 },
        { grade: "D", count: 1 },
        { grade: "E", count: 0 },
        { grade: "F", count: 1 },
        { grade: "ABS", count: 0 },
        { grade: "I", count: 0 },
        { grade: "S", count: 0 },
      ],
      mean: 53.8, // 215 / 4
    });
    expect(data.earlier).toEqual([{ session: "2022/2023", mean: 50 }]);
    expect(data.sheet.may_edit).toBe(false);

    const list = await (await api.request("/staff/results/review", { token: head.token })).json();
    expect(list.data).toContainEqual(expect.objectContaining({ id, status: "submitted" }));
  });

  it("approves a submitted result once, and audits it", async () => {
    const { id } = await submitted([[30, 40]]);
    const response = await approve(id);
    expect(response.status).toBe(200);
    const again = await approve(id);
    expect(again.status).toBe(409);
    expect((await again.json()).message).toBe(
      "This result is not waiting for your approval: it was approved or returned already.",
    );
    const [row] = await api.db.select().from(courseOfferings).where(eq(courseOfferings.id, id));
    expect(row).toMatchObject({ status: "approved", approvedBy: head.id });
    const actions = await api.db
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(and(eq(auditLog.entity, "course_result"), eq(auditLog.entityId, String(id))));
    expect(actions.map((row) => row.action)).toContain("course_result.approve");
  });

  it("returns a result to its lecturers with a note, who can then correct and submit it again", async () => {
    const { id, students, lecturer } = await submitted([[30, 40]]);
    expect((await sendBack(id, "  ")).status).toBe(400);
    const response = await sendBack(id, "Check the exam score of the first student.");
    expect(response.status).toBe(200);

    const sheet = (await (await kit.sheet(lecturer.token, id)).json()).data;
    expect(sheet).toMatchObject({
      may_edit: true,
      offering: { status: "open", return_note: "Check the exam score of the first student." },
    });
    expect((await review(id)).status).toBe(404);
    await kit.save(lecturer.token, id, [{ student_id: students[0]!.id, ca: 30, exam: 44 }]);
    expect((await kit.submit(lecturer.token, id)).status).toBe(200);
    expect((await approve(id)).status).toBe(200);
  });

  it("is not there for the head of another department, nor before the lecturers submit", async () => {
    const [chemistry] = await api.db
      .insert(departments)
      .values({ name: "Chemistry", facultyId: api.school.faculty.id })
      .returning();
    const other = await createStaff(api, { roles: ["hod"] });
    expect((await nameHead(chemistry!.id, other.id)).status).toBe(200);
    const otherToken = await staffSignIn(api, other);
    const { id } = await submitted([[30, 40]]);
    expect((await review(id, otherToken)).status).toBe(404);
    expect((await approve(id, otherToken)).status).toBe(404);
    expect((await sendBack(id, "No", otherToken)).status).toBe(404);

    const lecturer = await kit.lecturer();
    const { course } = await kit.courseWithStudents({ approved: 1 });
    const open = await kit.offeringOf(course.id, [lecturer.member.id]);
    expect((await review(open)).status).toBe(404);
    expect((await approve(open)).status).toBe(404);
    const [row] = await api.db.select().from(courseOfferings).where(eq(courseOfferings.id, id));
    expect(row!.status).toBe("submitted");
  });
});
