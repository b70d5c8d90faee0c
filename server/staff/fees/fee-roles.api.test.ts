import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { academicSessions } from "../../db/schema.ts";
import { createApiHarness, type ApiHarness } from "../../testing/api-harness.ts";
import type { StaffRole } from "../../../src/lib/staff/staff.ts";
import { createStaff, staffSignIn } from "../staff-test-kit.ts";

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

// Each call is harmless when allowed: an empty body or file answers 400, a missing fee 404.
const endpoints: { method: string; path: () => string; roles: StaffRole[]; json?: unknown; form?: boolean }[] = [
  { method: "GET", path: () => "/staff/fees", roles: ["bursar", "admin"] },
  { method: "GET", path: () => "/staff/fees/export", roles: ["bursar", "admin"] },
  { method: "POST", path: () => "/staff/fees", roles: ["bursar"], json: {} },
  { method: "PATCH", path: () => "/staff/fees/999999", roles: ["bursar"], json: {} },
  { method: "POST", path: () => "/staff/fees/import", roles: ["bursar"], form: true },
  { method: "PATCH", path: () => `/staff/sessions/${current}/late-fees`, roles: ["bursar"], json: {} },
];

describe("roles on the fee schedule endpoints", () => {
  for (const endpoint of endpoints) {
    it(`${endpoint.method} ${endpoint.path().replace(/\/\d+\b/, "/:id")}: allowed for ${endpoint.roles.join(", ")}`, async () => {
      for (const who of [...roles, "student", "nobody"]) {
        const body = endpoint.form ? new FormData() : undefined;
        const response = await api.request(endpoint.path(), { method: endpoint.method, json: endpoint.json, body, token: tokens.get(who) });
        const allowed = who !== "student" && who !== "nobody" && endpoint.roles.includes(who as StaffRole);
        const expected = who === "nobody" ? [401] : allowed ? [200, 400, 404] : [403];
        expect(expected, `${who} got ${response.status}`).toContain(response.status);
      }
    });
  }
});
