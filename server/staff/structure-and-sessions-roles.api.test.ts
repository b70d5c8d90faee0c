import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { academicSessions } from "../db/schema.ts";
import { createApiHarness, type ApiHarness } from "../testing/api-harness.ts";
import type { StaffRole } from "../../src/lib/staff/staff.ts";
import { createStaff, staffSignIn } from "./staff-test-kit.ts";

let api: ApiHarness;
let current: number;
const roles: StaffRole[] = ["registry", "adviser", "bursar", "support", "admin"];
const tokens = new Map<string, string>();

beforeAll(async () => {
  api = await createApiHarness();
  for (const role of roles) tokens.set(role, await staffSignIn(api, await createStaff(api, { roles: [role], totp: true })));
  tokens.set("student", await api.signIn((await api.createStudent()).phone));
  current = (await api.db.select().from(academicSessions).where(eq(academicSessions.isCurrent, true)))[0]!.id;
});
afterAll(() => api.close());

// Each call is harmless when allowed: an empty body (400), a no-op, or a refusal the rules give.
const endpoints: { method: string; path: () => string; roles: StaffRole[] | "any"; json?: unknown; form?: boolean }[] = [
  { method: "GET", path: () => "/staff/departments", roles: "any" },
  { method: "GET", path: () => "/staff/programmes", roles: "any" },
  ...["faculties", "courses", "course-mappings"].map((what) => ({ method: "GET", path: () => `/staff/${what}`, roles: ["registry", "admin"] as StaffRole[] })),
  ...["faculties", "departments", "programmes", "courses", "course-mappings"].flatMap((what) => [
    { method: "POST", path: () => `/staff/${what}`, roles: ["registry"] as StaffRole[], json: {} },
    { method: "POST", path: () => `/staff/${what}/import`, roles: ["registry"] as StaffRole[], form: true },
  ]),
  ...["faculties", "departments", "programmes", "courses"].map((what) => ({ method: "PATCH", path: () => `/staff/${what}/1`, roles: ["registry"] as StaffRole[], json: {} })),
  { method: "GET", path: () => "/staff/sessions", roles: ["registry", "admin"] },
  { method: "POST", path: () => "/staff/sessions", roles: ["registry"], json: {} },
  { method: "POST", path: () => `/staff/sessions/${current}/current`, roles: ["registry"] },
  { method: "PATCH", path: () => `/staff/sessions/${current}/registration`, roles: ["registry"], json: {} },
  { method: "GET", path: () => `/staff/sessions/${current}/promotion`, roles: ["registry", "admin"] },
  { method: "POST", path: () => `/staff/sessions/${current}/promotion`, roles: ["registry"] },
];

describe("roles on the academic structure and sessions endpoints", () => {
  for (const endpoint of endpoints) {
    const allowedRoles = endpoint.roles === "any" ? "every role" : endpoint.roles.join(", ");
    it(`${endpoint.method} ${endpoint.path().replace(/\/\d+\b/, "/:id")}: allowed for ${allowedRoles}`, async () => {
      for (const who of [...roles, "student", "nobody"]) {
        const body = endpoint.form ? new FormData() : undefined;
        const response = await api.request(endpoint.path(), { method: endpoint.method, json: endpoint.json, body, token: tokens.get(who) });
        const allowed = who !== "student" && who !== "nobody" && (endpoint.roles === "any" || endpoint.roles.includes(who as StaffRole));
        const expected = who === "nobody" ? [401] : allowed ? [200, 400, 409] : [403];
        expect(expected, `${who} got ${response.status}`).toContain(response.status);
      }
    });
  }
});
