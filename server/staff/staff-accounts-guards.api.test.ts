import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adviserScopes, staff } from "../db/schema.ts";
import { createApiHarness, type ApiHarness } from "../testing/api-harness.test-kit.ts";
import { createStaff, staffSignIn } from "./staff.test-kit.ts";

// Issue 30, item 18 (decision 164): an adviser needs a department and level.
let api: ApiHarness;
let adminToken: string;

beforeAll(async () => {
  api = await createApiHarness();
  adminToken = await staffSignIn(api, await createStaff(api, { roles: ["admin"], totp: true }));
});
afterAll(() => api.close());

const asAdmin = (path: string, init: { method?: string; json?: unknown } = {}) =>
  api.request(path, { ...init, token: adminToken });
const NEEDS_SCOPE =
  "A course adviser needs at least one department and one level to advise. Tick them under the adviser role, or remove the role.";
const staffCount = async () => (await api.db.select({ n: count() }).from(staff))[0]!.n;

describe("an adviser account without a department or level", () => {
  it("is refused when created, and nothing is saved", async () => {
    const before = await staffCount();
    const answer = await asAdmin("/staff/accounts", {
      method: "POST",
      json: { name: "Dr. Empty", email: "empty@college.test", roles: ["adviser", "registry"] },
    });
    expect(answer.status).toBe(400);
    expect((await answer.json()).error).toMatchObject({
      message: NEEDS_SCOPE,
      fields: { advises: "Choose at least one department and one level." },
    });
    expect(await staffCount()).toBe(before);
  });

  it("is refused when a change of roles or scope would leave an adviser with none, and the scope is kept", async () => {
    const department = api.school.departments[0]!.id;
    const adviser = await createStaff(api, {
      roles: ["adviser"],
      advises: [{ department_id: department, level: 100 }],
    });
    const emptied = await asAdmin(`/staff/accounts/${adviser.id}`, {
      method: "PATCH",
      json: { advises: [] },
    });
    expect(emptied.status).toBe(400);
    expect((await emptied.json()).error.message).toBe(NEEDS_SCOPE);
    const support = await createStaff(api, { roles: ["support"] });
    expect(
      (
        await asAdmin(`/staff/accounts/${support.id}`, {
          method: "PATCH",
          json: { roles: ["support", "adviser"] },
        })
      ).status,
    ).toBe(400);
    expect(
      await api.db.select().from(adviserScopes).where(eq(adviserScopes.staffId, adviser.id)),
    ).toHaveLength(1);
    expect((await api.db.select().from(staff).where(eq(staff.id, support.id)))[0]!.roles).toEqual([
      "support",
    ]);
  });

  it("saved before the rule, can still be renamed and deactivated, with the outcome in words", async () => {
    const older = await createStaff(api, { roles: ["adviser"] });
    const renamed = await asAdmin(`/staff/accounts/${older.id}`, {
      method: "PATCH",
      json: { name: "Dr. Older Adviser" },
    });
    expect((await renamed.json()).message).toBe("Changes saved for Dr. Older Adviser.");
    const off = await asAdmin(`/staff/accounts/${older.id}`, {
      method: "PATCH",
      json: { active: false },
    });
    expect(off.status).toBe(200);
    expect((await off.json()).message).toBe(
      "Account deactivated: Dr. Older Adviser can no longer sign in.",
    );
  });
});
