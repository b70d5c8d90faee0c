import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiHarness, type ApiHarness } from "../../testing/api-harness.test-kit.ts";
import type { StaffRole } from "../../../common/staff/staff.ts";
import { createStaff, staffSignIn } from "../../staff/staff.test-kit.ts";

let api: ApiHarness;
const roles: StaffRole[] = ["registry", "adviser", "bursar", "support", "admin"];
const tokens = new Map<string, string>();
let studentId: number;

beforeAll(async () => {
  api = await createApiHarness();
  for (const role of roles)
    tokens.set(role, await staffSignIn(api, await createStaff(api, { roles: [role], totp: true })));
  const student = await api.createStudent();
  studentId = student.id;
  tokens.set("student", await api.signIn(student.phone));
});
afterAll(() => api.close());

describe("roles on every registry student endpoint", () => {
  const endpoints: {
    method: string;
    path: () => string;
    roles: StaffRole[] | "any";
    json?: unknown;
  }[] = [
    { method: "GET", path: () => "/staff/programmes", roles: "any" },
    { method: "GET", path: () => "/staff/students?q=a", roles: ["registry"] },
    { method: "POST", path: () => "/staff/students/import", roles: ["registry"], json: {} },
    { method: "GET", path: () => `/staff/students/${studentId}`, roles: ["registry"] },
    { method: "PATCH", path: () => `/staff/students/${studentId}`, roles: ["registry"], json: {} },
    {
      method: "POST",
      path: () => `/staff/students/${studentId}/lock`,
      roles: ["registry"],
      json: {},
    },
    {
      method: "DELETE",
      path: () => `/staff/students/${studentId}/sign-in-lockout`,
      roles: ["registry"],
    },
    {
      method: "POST",
      path: () => `/staff/students/${studentId}/activation-link`,
      roles: ["registry"],
    },
  ];

  for (const endpoint of endpoints) {
    const allowedFor = endpoint.roles === "any" ? "every staff role" : endpoint.roles.join(", ");
    it(`${endpoint.method} ${endpoint.path().replace(/\d+/, ":id")}: allowed for ${allowedFor}`, async () => {
      for (const who of [...roles, "student", "nobody"]) {
        const response = await api.request(endpoint.path(), {
          method: endpoint.method,
          json: endpoint.json,
          token: tokens.get(who),
        });
        const allowed =
          who !== "student" &&
          who !== "nobody" &&
          (endpoint.roles === "any" || endpoint.roles.includes(who as StaffRole));
        const expected = who === "nobody" ? [401] : allowed ? [200, 400] : [403];
        expect(expected, `${who} got ${response.status}`).toContain(response.status);
      }
    });
  }
});
