import { courseRegistrations, courses, registrationApprovals } from "../db/schema.ts";
import type { ApiHarness } from "../testing/api-harness.test-kit.ts";
import { createStaff, staffSignIn } from "../staff/staff.test-kit.ts";

let courseSequence = 0;

/**
 * Test helpers for results: a course with registered students (approved or not), the registry and
 * lecturers signed in, and the calls the score sheet makes.
 */
export async function createResultsKit(api: ApiHarness) {
  const registry = await createStaff(api, { roles: ["registry"] });
  const registryToken = await staffSignIn(api, registry);
  const department = api.school.departments[0]!;

  async function lecturer() {
    const member = await createStaff(api, { roles: ["lecturer"] });
    return { member, token: await staffSignIn(api, member) };
  }

  /** A first-semester course of `units`, with `approved` students registered and approved, and `waiting` not yet approved. */
  async function courseWithStudents(options: {
    approved: number;
    waiting?: number;
    units?: number;
  }) {
    courseSequence += 1;
    const [course] = await api.db
      .insert(courses)
      .values({
        code: `RES ${100 + courseSequence}`,
        title: "Results test course",
        unit: options.units ?? 3,
        semester: 1,
      })
      .returning();
    const people = [];
    for (let i = 0; i < options.approved + (options.waiting ?? 0); i++) {
      const student = await api.createStudent({
        matricNo: `NCE/RES/${courseSequence}/${String(i + 1).padStart(3, "0")}`,
      });
      await api.db.insert(courseRegistrations).values({
        studentId: student.id,
        courseId: course!.id,
        session: "2024/2025",
        level: 100,
        semester: 1,
      });
      if (i < options.approved)
        await api.db.insert(registrationApprovals).values({
          studentId: student.id,
          session: "2024/2025",
          semester: 1,
          approvedBy: "Adviser",
        });
      people.push(student);
    }
    return { course: course!, students: people };
  }

  async function assign(courseId: number, lecturerIds: number[], token = registryToken) {
    return api.request("/staff/results/offerings", {
      method: "POST",
      token,
      json: {
        course_id: courseId,
        session: "2024/2025",
        semester: 1,
        department_id: department.id,
        lecturer_ids: lecturerIds,
      },
    });
  }

  /** Assigns the lecturers and answers the offering's id (fails the test otherwise). */
  async function offeringOf(courseId: number, lecturerIds: number[]) {
    const response = await assign(courseId, lecturerIds);
    if (response.status !== 200)
      throw new Error(`assign failed: ${response.status} ${await response.text()}`);
    return ((await response.json()) as { data: { id: number } }).data.id;
  }

  const sheet = (token: string, offeringId: number) =>
    api.request(`/staff/results/offerings/${offeringId}`, { token });

  const save = (token: string, offeringId: number, scores: unknown[]) =>
    api.request(`/staff/results/offerings/${offeringId}/scores`, {
      method: "PUT",
      token,
      json: { scores },
    });

  const submit = (token: string, offeringId: number) =>
    api.request(`/staff/results/offerings/${offeringId}/submit`, { method: "POST", token });

  return {
    registry,
    registryToken,
    department,
    lecturer,
    courseWithStudents,
    assign,
    offeringOf,
    sheet,
    save,
    submit,
  };
}
