import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiHarness, type ApiHarness } from "../testing/api-harness.ts";
import type { StaffRole } from "../../src/lib/staff/staff.ts";
import { createStaff, staffSignIn } from "./staff-test-kit.ts";

let api: ApiHarness;
const roles: StaffRole[] = ["registry", "adviser", "bursar", "support", "admin"];
const tokens = new Map<string, string>();

beforeAll(async () => {
  api = await createApiHarness();
  for (const role of roles) tokens.set(role, await staffSignIn(api, await createStaff(api, { roles: [role], totp: true })));
  const student = await api.createStudent();
  tokens.set("student", await api.signIn(student.phone));
});
afterAll(() => api.close());

// Bodies and ids that cannot succeed: an allowed role gets 200, 400 or 404, and nothing changes.
const endpoints: { method: string; path: string; roles: StaffRole[]; json?: unknown }[] = [
  { method: "GET", path: "/staff/complaints", roles: ["support"] },
  { method: "GET", path: "/staff/complaints/CMP-ABCDEF", roles: ["support"] },
  { method: "POST", path: "/staff/complaints/CMP-ABCDEF/replies", roles: ["support"], json: {} },
  { method: "POST", path: "/staff/complaints/CMP-ABCDEF/close", roles: ["support"] },
  { method: "POST", path: "/staff/complaints/CMP-ABCDEF/reopen", roles: ["support"] },
  { method: "GET", path: "/staff/announcements", roles: ["admin"] },
  { method: "POST", path: "/staff/announcements", roles: ["admin"], json: {} },
  { method: "PUT", path: "/staff/announcements/99999", roles: ["admin"], json: {} },
  { method: "DELETE", path: "/staff/announcements/99999", roles: ["admin"] },
  { method: "GET", path: "/staff/library", roles: ["admin"] },
  { method: "POST", path: "/staff/library", roles: ["admin"], json: {} },
  { method: "PATCH", path: "/staff/library/99999", roles: ["admin"], json: {} },
];

describe("roles on the help desk and content endpoints", () => {
  for (const endpoint of endpoints) {
    it(`${endpoint.method} ${endpoint.path}: ${endpoint.roles.join(", ")} only`, async () => {
      for (const who of [...roles, "student", "nobody"]) {
        const response = await api.request(endpoint.path, { method: endpoint.method, json: endpoint.json, token: tokens.get(who) });
        const allowed = endpoint.roles.includes(who as StaffRole);
        const expected = who === "nobody" ? [401] : allowed ? [200, 400, 404] : [403];
        expect(expected, `${who} got ${response.status}`).toContain(response.status);
      }
    });
  }

  it("GET /complaint/mine: a student only; staff sessions and no session get 401", async () => {
    for (const who of [...roles, "student", "nobody"]) {
      const response = await api.request("/complaint/mine", { token: tokens.get(who) });
      expect(response.status, who).toBe(who === "student" ? 200 : 401);
    }
  });
});
