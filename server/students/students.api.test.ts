import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiHarness, type ApiHarness } from "../testing/api-harness.test-kit.ts";
import { StudentRecord } from "../../common/students/student-record.ts";

let api: ApiHarness;
let token: string;
let me: { id: number };
let other: { id: number };

beforeAll(async () => {
  api = await createApiHarness();
  me = await api.createStudent({ phone: "08034445555" });
  other = await api.createStudent({ phone: "08034446666" });
  token = await api.signIn("08034445555");
});
afterAll(() => api.close());

describe.each(["/student/profile", "/student/info", "/student/payment-info"])(
  "GET %s/{id}",
  (base) => {
    it("answers the signed-in student's own record", async () => {
      const response = await api.request(`${base}/${me.id}`, { token });
      expect(response.status).toBe(200);
    });

    it("refuses another student's id with 403", async () => {
      const response = await api.request(`${base}/${other.id}`, { token });
      expect(response.status).toBe(403);
      expect((await response.json()).error.message).toBe(
        "You can only see and change your own record.",
      );
    });

    it.each(["abc", "-1", "1.5", "1%20OR%201=1", "0"])("refuses the id %s with 400", async (id) => {
      const response = await api.request(`${base}/${id}`, { token });
      expect(response.status).toBe(400);
    });

    // Past the largest id a row can have, the address names nothing: 404, as on the staff side (issue 30, item 23).
    it("answers 404 for an id no row can have", async () => {
      expect((await api.request(`${base}/99999999999`, { token })).status).toBe(404);
    });

    it("refuses without a session", async () => {
      expect((await api.request(`${base}/${me.id}`)).status).toBe(401);
    });
  },
);

describe("student record", () => {
  it("matches the shared contract and carries the approved programme's faculty", async () => {
    const body = await (await api.request(`/student/info/${me.id}`, { token })).json();
    const record = StudentRecord.parse(body.data);
    expect(record.admin_response[0]?.approved_program.faculty_name).toBe("School of Sciences");
  });
});

describe("dashboard data", () => {
  it("lists announcements and registered courses for the current session", async () => {
    const announcements = await api.request("/setup/announcement/view", { token });
    expect(announcements.status).toBe(200);
    expect(Array.isArray((await announcements.json()).data)).toBe(true);
    const courses = await api.request("/courses/student-view", { token });
    expect((await courses.json()).data).toEqual([]);
  });

  it("refuses a malformed student-view query", async () => {
    const response = await api.request("/courses/student-view?registration_level=150", { token });
    expect(response.status).toBe(400);
  });
});
