import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiHarness, type ApiHarness } from "../testing/api-harness.ts";
import { createStaff, staffSignIn } from "../staff/staff-test-kit.ts";
import type { StaffRole } from "../../src/lib/staff/staff.ts";

// Each bursary endpoint × each role, a student and no session: only the bursar gets in.
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

const endpoints: { method: string; path: string; json?: unknown }[] = [
  { method: "GET", path: "/staff/payments" },
  { method: "GET", path: "/staff/payments/NOPE-1" },
  { method: "GET", path: "/staff/reconciliation?from=2025-01-15&to=2025-01-15" },
  { method: "GET", path: "/staff/reconciliation.csv?from=2025-01-15&to=2025-01-15" },
  { method: "POST", path: "/staff/reconciliation/credit", json: { reference: "NOPE-1" } },
  { method: "POST", path: "/staff/reconciliation/uncredit", json: { reference: "NOPE-1" } },
  { method: "GET", path: "/staff/refunds" },
  { method: "POST", path: "/staff/refunds", json: { reference: "NOPE-1", reason: "Paid twice" } },
];

describe("roles on every bursary endpoint", () => {
  for (const endpoint of endpoints) {
    it(`${endpoint.method} ${endpoint.path}: the bursar only`, async () => {
      for (const who of [...roles, "student", "nobody"]) {
        const response = await api.request(endpoint.path, { method: endpoint.method, json: endpoint.json, token: tokens.get(who) });
        const expected = who === "nobody" ? [401] : who === "bursar" ? [200, 404] : [403];
        expect(expected, `${who} got ${response.status}`).toContain(response.status);
      }
    });
  }

  it("a bursar who has not finished signing in with the authenticator is refused", async () => {
    const member = await createStaff(api, { roles: ["bursar"], totp: true });
    const response = await api.request("/staff/login", { method: "POST", json: { email: member.email, password: "staff-password" }, clientAddress: "192.0.2.11" });
    const halfway = (await response.json()).data.tokens.access;
    expect((await api.request("/staff/payments", { token: halfway })).status).toBe(403);
  });
});
