import { and, eq } from "drizzle-orm";
import { courseRegistrations } from "../../db/schema.ts";
import type { ApiHarness } from "../../testing/api-harness.test-kit.ts";
import type { StudentFields } from "../../db/factories.ts";
import { courseTestKit } from "../course.test-kit.ts";
import { createStaff, staffSignIn } from "../../staff/staff.test-kit.ts";

export const SESSION = "2024/2025";
let phone = 8037770000;

/** Test helpers for advisers' reviews over the API harness (catalogue inserted by the caller). */
export function advisingTestKit(api: ApiHarness) {
  const courses = courseTestKit(api);

  /** A signed-in adviser of the harness's Biology department at the given levels. */
  async function adviser(levels: number[] = [100], departmentId = api.school.departments[0]!.id) {
    const member = await createStaff(api, {
      roles: ["adviser"],
      advises: levels.map((level) => ({ department_id: departmentId, level })),
    });
    return { member, token: await staffSignIn(api, member) };
  }

  /** A new signed-in student (100 level Biology unless told) with `codes` registered in 2024/2025. */
  async function student(
    codes: string[] = ["BIO 111", "GSE 111", "BIO 121"],
    fields: Partial<StudentFields> = {},
  ) {
    phone += 1;
    const row = await api.createStudent({ phone: `0${phone}`, ...fields });
    const token = await api.signIn(`0${phone}`);
    if (codes.length) {
      const response = await courses.register(token, {
        courses: await courses.idsOf(token, codes),
        registration_level: 100,
        session: SESSION,
      });
      if (response.status !== 201) throw new Error(`registration failed: ${response.status}`);
    }
    return { student: row, token };
  }

  const post = (path: string, token: string, json: unknown) =>
    api.request(path, { method: "POST", token, json });
  /** The ids of what the semester holds now: what an adviser opening the page would be shown. */
  const registrationIds = async (studentId: number, semester: unknown, session: unknown) =>
    typeof semester !== "number" || typeof session !== "string"
      ? []
      : (
          await api.db
            .select({ id: courseRegistrations.id })
            .from(courseRegistrations)
            .where(
              and(
                eq(courseRegistrations.studentId, studentId),
                eq(courseRegistrations.session, session),
                eq(courseRegistrations.semester, semester),
              ),
            )
        ).map((row) => row.id);
  /** Approves what the semester holds now, or the `registration_ids` given (what the adviser saw earlier). */
  const approve = async (
    token: string,
    studentId: number,
    semester: unknown = 1,
    session: unknown = SESSION,
    registration_ids?: number[],
  ) =>
    post(`/staff/registrations/${studentId}/approve`, token, {
      session,
      semester,
      registration_ids: registration_ids ?? (await registrationIds(studentId, semester, session)),
    });
  const sendBack = (
    token: string,
    studentId: number,
    note: unknown,
    semester: unknown = 1,
    session: unknown = SESSION,
  ) => post(`/staff/registrations/${studentId}/return`, token, { session, semester, note });

  async function review(token: string, studentId: number, session = SESSION) {
    const response = await api.request(
      `/staff/registrations/${studentId}?${new URLSearchParams({ session })}`,
      { token },
    );
    return { status: response.status, body: await response.json() };
  }

  async function list(token: string, query: Record<string, string> = {}) {
    const response = await api.request(
      `/staff/registrations?${new URLSearchParams({ session: SESSION, ...query })}`,
      { token },
    );
    return { status: response.status, body: await response.json() };
  }

  /** The student's own view of the session: courses, approvals and returns. */
  const studentView = async (token: string) =>
    (await api.request(`/courses/student-view?session=${SESSION}`, { token })).json();

  return { courses, adviser, student, approve, sendBack, review, list, studentView };
}
