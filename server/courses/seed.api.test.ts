import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiHarness, type ApiHarness } from "../testing/api-harness.test-kit.ts";
import { StudentView } from "../../common/courses/registered-course.ts";
import { registrationStatus, totalUnits } from "../../common/courses/registration-status.ts";
import { seedCourses } from "./seed.ts";

let api: ApiHarness;
let token: string;
let studentId: number;

beforeAll(async () => {
  api = await createApiHarness();
  studentId = (
    await api.createStudent({ phone: "08030000001", level: 200, entrySession: "2023/2024" })
  ).id;
  await seedCourses(api.db, { approvedHistoryFor: "08030000001" });
  token = await api.signIn("08030000001");
});
afterAll(() => api.close());

describe("the demo seed's approved history", () => {
  it("registers 2023/2024 at 100 level for both semesters within the cap, approved by the Course Advisor", async () => {
    const response = await api.request(
      "/courses/student-view?session=2023/2024&registration_level=100",
      { token },
    );
    const view = StudentView.parse(await response.json());
    expect(registrationStatus(view.data)).toBe("Completed");
    expect(totalUnits(view.data)).toBe(75);
    expect(view.approvals.map((approval) => [approval.semester, approval.approved_by])).toEqual([
      [1, "Dr. Funmilayo Adeyemi"],
      [2, "Dr. Funmilayo Adeyemi"],
    ]);
  });

  it("leaves the current session empty, so the dashboard card says NO", async () => {
    const body = await (await api.request("/courses/student-view", { token })).json();
    expect(registrationStatus(body.data)).toBe("NO");
  });

  it("refuses to reset the approved session with the spec's sentence", async () => {
    const response = await api.request("/courses/reset/", {
      method: "POST",
      token,
      json: { registration_session: "2023/2024", semester: "first", student_id: studentId },
    });
    expect(response.status).toBe(403);
    expect((await response.json()).error.message).toBe(
      "You cannot delete courses after the Course Advisor have approved your course registration.",
    );
  });
});
