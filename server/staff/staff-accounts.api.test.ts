import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, staff } from "../db/schema.ts";
import { createApiHarness, type ApiHarness } from "../testing/api-harness.test-kit.ts";
import { mailJobsTo } from "../testing/mail-jobs.test-kit.ts";
import type { StaffRole } from "../../common/staff/staff.ts";
import { createStaff, latestStaffLink, staffSignIn } from "./staff.test-kit.ts";

let api: ApiHarness;
let admin: Awaited<ReturnType<typeof createStaff>>;
let adminToken: string;

beforeAll(async () => {
  api = await createApiHarness();
  admin = await createStaff(api, { roles: ["admin"], totp: true });
  adminToken = await staffSignIn(api, admin);
});
afterAll(() => api.close());

const asAdmin = (path: string, init: { method?: string; json?: unknown } = {}) =>
  api.request(path, { ...init, token: adminToken });

describe("an administrator manages staff accounts", () => {
  it("creates an account, e-mails an invitation, and the link sets a password that signs in once used", async () => {
    const department = api.school.departments[0]!.id;
    const created = await asAdmin("/staff/accounts", {
      method: "POST",
      json: {
        name: "Dr. Bisi Ade",
        email: "Bisi.Ade@College.test",
        roles: ["adviser"],
        advises: [{ department_id: department, level: 100 }],
      },
    });
    expect(created.status).toBe(201);
    const { data } = await created.json();
    expect(data).toMatchObject({
      email: "bisi.ade@college.test",
      roles: ["adviser"],
      password_set: false,
      totp_enrolled: false,
    });
    expect(data.advises).toEqual([
      { department_id: department, department: "Biology", level: 100 },
    ]);

    const token = await latestStaffLink(api, "bisi.ade@college.test");
    expect(token).not.toBeNull();
    const set = await api.request("/staff/password/set", {
      method: "POST",
      json: { token, password: "a-long-password" },
    });
    expect(set.status).toBe(200);
    const again = await api.request("/staff/password/set", {
      method: "POST",
      json: { token, password: "another-password" },
    });
    expect(again.status).toBe(400);
    await staffSignIn(api, { id: data.id, email: "bisi.ade@college.test" }, "a-long-password");

    const [entry] = await api.db.select().from(auditLog).where(eq(auditLog.action, "staff.create"));
    expect(entry).toMatchObject({ staffId: admin.id, entity: "staff", entityId: String(data.id) });
  });

  it("refuses a second account with the same e-mail, unknown roles and unknown departments, writing nothing", async () => {
    const before = await api.db.select({ n: sql<number>`count(*)::int` }).from(staff);
    const answers = await Promise.all([
      asAdmin("/staff/accounts", {
        method: "POST",
        json: { name: "Copy", email: admin.email, roles: ["support"] },
      }),
      asAdmin("/staff/accounts", {
        method: "POST",
        json: { name: "Bad role", email: "bad@college.test", roles: ["dean"] },
      }),
      asAdmin("/staff/accounts", {
        method: "POST",
        json: { name: "No role", email: "none@college.test", roles: [] },
      }),
      asAdmin("/staff/accounts", {
        method: "POST",
        json: {
          name: "Adviser",
          email: "adv@college.test",
          roles: ["adviser"],
          advises: [{ department_id: 9999, level: 100 }],
        },
      }),
      asAdmin("/staff/accounts", {
        method: "POST",
        json: {
          name: "Adviser",
          email: "adv2@college.test",
          roles: ["adviser"],
          advises: [{ department_id: 1, level: 600 }],
        },
      }),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([409, 400, 400, 400, 400]);
    const after = await api.db.select({ n: sql<number>`count(*)::int` }).from(staff);
    expect(after).toEqual(before);
    expect(await mailJobsTo(api.db, admin.email)).toEqual([]);
  });

  it("deactivating an account signs it out everywhere; an admin cannot deactivate themselves", async () => {
    const member = await createStaff(api, { roles: ["support"] });
    const token = await staffSignIn(api, member);
    const off = await asAdmin(`/staff/accounts/${member.id}`, {
      method: "PATCH",
      json: { active: false },
    });
    expect(off.status).toBe(200);
    expect((await api.request("/staff/me", { token })).status).toBe(401);
    const [entry] = await api.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, String(member.id)), eq(auditLog.action, "staff.update")));
    expect(entry).toMatchObject({ before: { active: true }, after: { active: false } });

    const self = await asAdmin(`/staff/accounts/${admin.id}`, {
      method: "PATCH",
      json: { active: false },
    });
    expect(self.status).toBe(400);
    expect(
      (await asAdmin(`/staff/accounts/${member.id}`, { method: "PATCH", json: {} })).status,
    ).toBe(400);
    expect(
      (await asAdmin("/staff/accounts/99999", { method: "PATCH", json: { active: true } })).status,
    ).toBe(404);
  });

  it("mails a fresh password link that replaces the last one, and queues none for a deactivated account", async () => {
    const member = await createStaff(api, { roles: ["support"] });
    const first = await asAdmin(`/staff/accounts/${member.id}/password-link`, { method: "POST" });
    expect(first.status).toBe(200);
    expect((await first.json()).message).toBe(`A password link is on its way to ${member.email}.`);
    const older = await latestStaffLink(api, member.email);
    expect(
      (await asAdmin(`/staff/accounts/${member.id}/password-link`, { method: "POST" })).status,
    ).toBe(200);
    const newer = await latestStaffLink(api, member.email);
    expect(newer).not.toBe(older);
    expect(
      (
        await api.request("/staff/password/set", {
          method: "POST",
          json: { token: older, password: "from-the-older-link" },
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await api.request("/staff/password/set", {
          method: "POST",
          json: { token: newer, password: "from-the-newer-link" },
        })
      ).status,
    ).toBe(200);
    const audits = await api.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, "staff.password_link"));
    expect(audits.filter((entry) => entry.entityId === String(member.id))).toHaveLength(2);

    expect(
      (await asAdmin(`/staff/accounts/${member.id}`, { method: "PATCH", json: { active: false } }))
        .status,
    ).toBe(200);
    const queued = (await mailJobsTo(api.db, member.email)).length;
    expect(
      (await asAdmin(`/staff/accounts/${member.id}/password-link`, { method: "POST" })).status,
    ).toBe(400);
    expect(await mailJobsTo(api.db, member.email)).toHaveLength(queued);
  });

  it("keeps a member's e-mail as created, so a password link already sent cannot go astray (decision 139)", async () => {
    const member = await createStaff(api, { roles: ["support"] });
    const answer = await asAdmin(`/staff/accounts/${member.id}`, {
      method: "PATCH",
      json: { name: "Renamed", email: "elsewhere@example.com" },
    });
    expect(answer.status).toBe(200);
    expect((await answer.json()).data).toMatchObject({ name: "Renamed", email: member.email });
  });

  it("keeps the audit log append-only, even for a direct UPDATE or DELETE", async () => {
    await expect(api.db.update(auditLog).set({ action: "forged" })).rejects.toThrow();
    await expect(api.db.delete(auditLog)).rejects.toThrow();
  });
});

describe("roles on every staff endpoint", () => {
  // A throwaway account the admin-only routes act on (id 2: created after the admin above).
  const endpoints: { method: string; path: string; roles: StaffRole[] | "any"; json?: unknown }[] =
    [
      { method: "GET", path: "/staff/me", roles: "any" },
      { method: "GET", path: "/staff/departments", roles: "any" },
      { method: "GET", path: "/staff/accounts", roles: ["admin"] },
      { method: "POST", path: "/staff/accounts", roles: ["admin"], json: {} },
      { method: "PATCH", path: "/staff/accounts/2", roles: ["admin"], json: {} },
      { method: "POST", path: "/staff/accounts/2/password-link", roles: ["admin"] },
      { method: "POST", path: "/staff/accounts/2/totp-reset", roles: ["admin"] },
      { method: "GET", path: "/staff/audit", roles: "any" },
    ];
  const roles: StaffRole[] = ["registry", "adviser", "bursar", "support", "admin"];
  const tokens = new Map<string, string>();

  beforeAll(async () => {
    for (const role of roles)
      tokens.set(
        role,
        await staffSignIn(api, await createStaff(api, { roles: [role], totp: true })),
      );
    const student = await api.createStudent();
    tokens.set("student", await api.signIn(student.phone));
  });

  for (const endpoint of endpoints) {
    it(`${endpoint.method} ${endpoint.path}: allowed for ${endpoint.roles === "any" ? "every role" : endpoint.roles.join(", ")}`, async () => {
      for (const who of [...roles, "student", "nobody"]) {
        const response = await api.request(endpoint.path, {
          method: endpoint.method,
          json: endpoint.json,
          token: tokens.get(who),
        });
        const allowed =
          who !== "student" &&
          who !== "nobody" &&
          (endpoint.roles === "any" || endpoint.roles.includes(who as StaffRole));
        const expected = who === "nobody" ? [401] : allowed ? [200, 400, 404] : [403];
        expect(expected, `${who} got ${response.status}`).toContain(response.status);
      }
    });
  }
});
