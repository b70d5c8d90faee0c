import { courseMappings, courses, registrationApprovals } from "../db/schema.ts";
import type { ApiHarness } from "../testing/api-harness.test-kit.ts";
import type { Course } from "../../common/courses/registered-course.ts";

/** Test helpers over the API harness: course ids by code, register, reset and approve. */
export function courseTestKit(api: ApiHarness) {
  async function offered(token: string, level = 100) {
    const response = await api.request(`/courses/mapped/read?mapped_level=${level}`, { token });
    const body = (await response.json()) as { data: { data: Course[] } };
    return new Map(body.data.data.map((course) => [course.code, course]));
  }

  async function idsOf(token: string, codes: string[], level = 100) {
    const byCode = await offered(token, level);
    return codes.map((code) => {
      const course = byCode.get(code);
      if (!course) throw new Error(`${code} is not offered at ${level} level`);
      return course.course_id;
    });
  }

  const register = (token: string, json: unknown) =>
    api.request("/courses/register", { method: "POST", token, json });

  const reset = (token: string, json: unknown) =>
    api.request("/courses/reset/", { method: "POST", token, json });

  const approve = (studentId: number, session: string, semester: 1 | 2) =>
    api.db.insert(registrationApprovals).values({
      studentId,
      session,
      semester,
      approvedBy: "Dr. Funmilayo Adeyemi",
      approvedAt: new Date("2024-11-20T09:00:00Z"),
    });

  /** `count` new first-semester courses of 4 units, `PREFIX 101` onwards, offered at 100 level. */
  async function addOfferedCourses(prefix: string, count: number) {
    const rows = await api.db
      .insert(courses)
      .values(
        Array.from({ length: count }, (_, i) => ({
          code: `${prefix} ${101 + i}`,
          title: `Test course ${i + 1}`,
          unit: 4,
          semester: 1,
        })),
      )
      .returning();
    await api.db.insert(courseMappings).values(
      rows.map((row) => ({
        courseId: row.id,
        programmeId: api.school.programmes[0]!.id,
        level: 100,
        semester: 1,
      })),
    );
    return rows;
  }

  return { offered, idsOf, register, reset, approve, addOfferedCourses };
}
