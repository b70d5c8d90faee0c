import { and, count, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog } from "../db/schema.ts";
import { createApiHarness, type ApiHarness } from "../testing/api-harness.test-kit.ts";
import { codeFor, createStaff, latestStaffLink, staffSignIn } from "../staff/staff.test-kit.ts";
import {
  importFile,
  latestStudentLink,
  postImport,
  studentRow,
} from "../students/registry/students.test-kit.ts";

let api: ApiHarness;
let registry: Awaited<ReturnType<typeof createStaff>>;
let registryToken: string;
let admin: Awaited<ReturnType<typeof createStaff>>;
let adminToken: string;

type Row = {
  id: number;
  at: string;
  staff_id: number | null;
  staff_name: string;
  action: string;
  entity: string;
  entity_id: string | null;
  record: string;
  before: unknown;
  after: unknown;
  hidden: string[];
  part_of: number | null;
  parts: number;
};
type Page = { data: Row[]; total: number; page: number; page_size: number };

async function read(token: string, query: Record<string, string> = {}) {
  const response = await api.request(`/staff/audit?${new URLSearchParams(query)}`, { token });
  expect(response.status).toBe(200);
  return (await response.json()) as Page;
}
const rowsOf = async (action: string) =>
  api.db.select().from(auditLog).where(eq(auditLog.action, action));

beforeAll(async () => {
  api = await createApiHarness();
  registry = await createStaff(api, { roles: ["registry"] });
  registryToken = await staffSignIn(api, registry);
  admin = await createStaff(api, { roles: ["admin"], totp: true });
  adminToken = await staffSignIn(api, admin);
});
afterAll(() => api.close());

describe("the audit log reads by name, in Lagos time, and is searched", () => {
  it("names the student by name and matric number, and lists the changed fields", async () => {
    const student = await api.createStudent({
      surname: "Obi",
      othername: "Amaka",
      matricNo: "COE/2023/BIO/0101",
    });
    const saved = await api.request(`/staff/students/${student.id}`, {
      method: "PATCH",
      token: registryToken,
      json: { level: 200 },
    });
    expect(saved.status).toBe(200);
    const { data } = await read(registryToken, { matric_no: "coe/2023/bio/0101" });
    expect(data).toHaveLength(1);
    expect(data[0]).toMatchObject({
      action: "student.update",
      record: "Student Amaka Obi (COE/2023/BIO/0101)",
      staff_name: `${registry.name} (${registry.email})`,
      before: { level: 100 },
      after: { level: 200 },
      hidden: [],
    });
    expect(JSON.stringify(data)).not.toMatch(/student \d/i);
  });

  it("finds rows by the staff member's e-mail and by action, and nothing for an unknown matric number", async () => {
    const other = await createStaff(api, { roles: ["registry"] });
    const otherToken = await staffSignIn(api, other);
    expect(
      (
        await api.request("/staff/sessions", {
          method: "POST",
          token: otherToken,
          json: { name: "2040/2041" },
        })
      ).status,
    ).toBe(201);
    const byOther = await read(registryToken, { staff_email: other.email.toUpperCase() });
    // Their sign-in is about their account, which the registry does not read.
    expect(byOther.data.map((row) => row.action)).toEqual(["session.create"]);
    const sessions = await read(registryToken, { action: "session.create" });
    expect(sessions.data.map((row) => row.record)).toEqual(["Session 2040/2041"]);
    expect((await read(registryToken, { matric_no: "NO/SUCH/1" })).total).toBe(0);
  });

  it("counts days in Lagos time: a change at 23:30 UTC is on the next Lagos day", async () => {
    // From the harness's 2025-01-15 09:00 UTC to 2025-03-10 23:30 UTC.
    api.clock.advance(new Date("2025-03-10T23:30:00Z").getTime() - api.clock.now().getTime());
    // Sessions lapse over the jump: everyone signs in again.
    registryToken = await staffSignIn(api, registry);
    adminToken = await staffSignIn(api, admin);
    expect(
      (
        await api.request("/staff/sessions", {
          method: "POST",
          token: registryToken,
          json: { name: "2050/2051" },
        })
      ).status,
    ).toBe(201);
    const onTheTenth = await read(registryToken, {
      action: "session.create",
      from: "2025-03-10",
      to: "2025-03-10",
    });
    const onTheEleventh = await read(registryToken, {
      action: "session.create",
      from: "2025-03-11",
      to: "2025-03-11",
    });
    expect(onTheTenth.total).toBe(0);
    expect(onTheEleventh.data.map((row) => row.record)).toEqual(["Session 2050/2051"]);
  });

  it("refuses a bad search with a message, never a 500", async () => {
    const bad: Record<string, string>[] = [
      { from: "10/03/2025" },
      { from: "2025-03-12", to: "2025-03-11" },
      { page: "0" },
      { part_of: "99999999999" },
      { staff_id: "abc" },
      { matric_no: "x".repeat(41) },
    ];
    for (const query of bad) {
      const response = await api.request(`/staff/audit?${new URLSearchParams(query)}`, {
        token: registryToken,
      });
      expect(response.status, JSON.stringify(query)).toBe(400);
      expect(
        ((await response.json()) as { error: { message: string } }).error.message,
      ).toBeTruthy();
    }
  });

  it("pages the log 50 at a time", async () => {
    const first = await read(adminToken);
    expect(first.page_size).toBe(50);
    expect(first.data.length).toBe(Math.min(50, first.total));
  });
});

describe("an import writes one summary row that opens onto a row per student", () => {
  it("links the summary to each student's row", async () => {
    const answer = await postImport(
      api,
      registryToken,
      importFile([studentRow(501), studentRow(502), studentRow(503)]),
    );
    expect(answer.status).toBe(200);
    const [summary] = await rowsOf("student.import");
    expect(summary).toMatchObject({
      entity: "student_import",
      staffId: registry.id,
      after: { created: 3, updated: 0, unchanged: 0 },
      partOf: null,
    });
    const parts = await api.db.select().from(auditLog).where(eq(auditLog.partOf, summary!.id));
    expect(parts.map((row) => row.action)).toEqual([
      "student.import.create",
      "student.import.create",
      "student.import.create",
    ]);

    const { data } = await read(registryToken, { action: "student.import" });
    expect(data[0]).toMatchObject({ id: summary!.id, record: "Student import", parts: 3 });
    const opened = await read(registryToken, { part_of: String(summary!.id) });
    expect(opened.total).toBe(4);
    expect(
      opened.data
        .filter((row) => row.part_of === summary!.id)
        .map((row) => row.record)
        .sort(),
    ).toEqual([
      expect.stringMatching(/^Student .* \(COE\/2024\/BIO\/0501\)$/),
      expect.stringMatching(/0502\)$/),
      expect.stringMatching(/0503\)$/),
    ]);
  });
});

describe("sign-in and password events are audited, with no secret in the row", () => {
  it("a staff member's password from a link, sign-in, refused code and spent recovery code", async () => {
    const created = await api.request("/staff/accounts", {
      method: "POST",
      token: adminToken,
      json: { name: "Ngozi Eze", email: "ngozi@college.test", roles: ["bursar"] },
    });
    expect(created.status).toBe(201);
    const id = ((await created.json()) as { data: { id: number } }).data.id;
    const link = await latestStaffLink(api, "ngozi@college.test");
    expect(
      (
        await api.request("/staff/password/set", {
          method: "POST",
          json: { token: link, password: "ngozi-secret-1" },
        })
      ).status,
    ).toBe(200);

    const recovery = "aaaa-bbbb-cccc";
    const { hashRecoveryCode, newTotpSecret } = await import("../staff/totp.ts");
    await api.db.execute(
      sql`update staff set totp_secret = ${newTotpSecret()}, recovery_code_hashes = array[${hashRecoveryCode(recovery)}] where id = ${id}`,
    );
    const signIn = async () => {
      const answer = await api.request("/staff/login", {
        method: "POST",
        json: { email: "ngozi@college.test", password: "ngozi-secret-1" },
        clientAddress: "192.0.2.20",
      });
      return ((await answer.json()) as { data: { tokens: { access: string } } }).data.tokens.access;
    };
    const first = await signIn();
    expect(
      (
        await api.request("/staff/login/code", {
          method: "POST",
          token: first,
          json: { code: "000000" },
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await api.request("/staff/login/code", {
          method: "POST",
          token: first,
          json: { code: recovery },
        })
      ).status,
    ).toBe(200);

    const mine = await api.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, "staff"), eq(auditLog.entityId, String(id))));
    expect(mine.map((row) => row.action)).toEqual([
      "staff.create",
      "staff.password_set",
      "staff.sign_in",
      "staff.second_factor_refused",
      "staff.recovery_code_used",
    ]);
    expect(mine.find((row) => row.action === "staff.sign_in")).toMatchObject({
      staffId: id,
      after: { stage: "code" },
    });
    expect(mine.find((row) => row.action === "staff.recovery_code_used")).toMatchObject({
      after: { recovery_codes_left: 0 },
    });
    const text = JSON.stringify(mine);
    for (const secret of ["ngozi-secret-1", link!, recovery, "000000", first])
      expect(text).not.toContain(secret);

    // She reads her own sign-ins; the registry does not.
    const ngozi = await read(first, { staff_email: "ngozi@college.test" });
    expect(ngozi.data.map((row) => row.action)).toContain("staff.second_factor_refused");
    expect((await read(registryToken, { staff_email: "ngozi@college.test" })).total).toBe(0);
  });

  it("a student who chooses a password from an activation link, and later from a reset link", async () => {
    const email = "student.601@students.example";
    const answer = await postImport(api, registryToken, importFile([studentRow(601)]));
    expect(answer.status).toBe(200);
    const { data } = await read(registryToken, { matric_no: "COE/2024/BIO/0601" });
    const id = Number(
      (await api.db.select().from(auditLog).where(eq(auditLog.id, data[0]!.id)))[0]!.entityId,
    );
    expect(
      (
        await api.request(`/staff/students/${id}/activation-link`, {
          method: "POST",
          token: registryToken,
        })
      ).status,
    ).toBe(200);
    const activation = (await latestStudentLink(api, email))!;
    const choose = (link: { uidb64: string; token: string }, password: string) =>
      api.request("/password/password-reset-complete", {
        method: "PATCH",
        json: { ...link, password, confirm_password: password },
      });
    expect((await choose(activation, "amaka-first-1")).status).toBe(200);

    const asked = await api.request("/password/request-reset-email/", {
      method: "POST",
      json: { email },
    });
    expect(asked.status).toBe(200);
    // The reset link is queued just after the answer.
    await expect
      .poll(async () => (await latestStudentLink(api, email))?.token)
      .not.toBe(activation.token);
    const reset = (await latestStudentLink(api, email))!;
    expect((await choose(reset, "amaka-second-2")).status).toBe(200);

    const byTheStudent = {
      staffId: null,
      byStudentId: id,
      entity: "student",
      entityId: String(id),
      before: null,
      after: null,
    };
    const activated = await rowsOf("student.activated");
    const resetRows = await rowsOf("student.password_reset");
    expect(activated).toEqual([expect.objectContaining(byTheStudent)]);
    expect(resetRows).toEqual([expect.objectContaining(byTheStudent)]);
    const shown = await read(registryToken, { matric_no: "COE/2024/BIO/0601" });
    for (const action of ["student.activated", "student.password_reset"]) {
      const row = shown.data.find((entry) => entry.action === action);
      expect(row?.staff_name, action).toMatch(/\(COE\/2024\/BIO\/0601\), the student$/);
    }
    const text = JSON.stringify([...activated, ...resetRows]);
    for (const secret of [activation.token, reset.token, "amaka-first-1", "amaka-second-2"])
      expect(text).not.toContain(secret);
  });

  it("a staff member who sets up an authenticator, and an administrator who resets it", async () => {
    const member = await createStaff(api, { roles: ["bursar"] });
    // A bursar with no authenticator signs in to the set-up step.
    const token = await staffSignIn(api, member);
    const started = await api.request("/staff/totp/start", { method: "POST", token });
    expect(started.status).toBe(200);
    const { secret } = ((await started.json()) as { data: { secret: string } }).data;
    const code = await codeFor(api, member.id);
    const confirmed = await api.request("/staff/totp/confirm", {
      method: "POST",
      token,
      json: { code, password: "staff-password" },
    });
    expect(confirmed.status).toBe(200);
    const recoveryCodes = ((await confirmed.json()) as { data: { recovery_codes: string[] } }).data
      .recovery_codes;
    const reset = await api.request(`/staff/accounts/${member.id}/totp-reset`, {
      method: "POST",
      token: adminToken,
    });
    expect(reset.status).toBe(200);

    const { data } = await read(adminToken, { entity: "staff", entity_id: String(member.id) });
    const account = {
      entity: "staff",
      entity_id: String(member.id),
      record: `Staff account ${member.name} (${member.email})`,
      before: null,
      after: null,
    };
    expect(data.filter((row) => row.action === "staff.totp_enrolled")).toEqual([
      expect.objectContaining({
        ...account,
        staff_id: member.id,
        staff_name: `${member.name} (${member.email})`,
      }),
    ]);
    expect(data.filter((row) => row.action === "staff.totp_reset")).toEqual([
      expect.objectContaining({
        ...account,
        staff_id: admin.id,
        staff_name: `${admin.name} (${admin.email})`,
      }),
    ]);
    const text = JSON.stringify(data);
    for (const given of [secret, code, "staff-password", ...recoveryCodes])
      expect(text).not.toContain(given);
  });
});

describe("the audit table refuses every way of rewriting it", () => {
  it("refuses UPDATE, DELETE and TRUNCATE, and keeps its rows", async () => {
    const [before] = await api.db.select({ n: count() }).from(auditLog);
    await expect(api.db.update(auditLog).set({ action: "forged" })).rejects.toThrow();
    await expect(api.db.delete(auditLog)).rejects.toThrow();
    await expect(api.db.execute(sql`truncate audit_log`)).rejects.toThrow();
    await expect(api.db.execute(sql`truncate audit_log cascade`)).rejects.toThrow();
    const [after] = await api.db.select({ n: count() }).from(auditLog);
    expect(after).toEqual(before);
    expect(before!.n).toBeGreaterThan(0);
  });
});
