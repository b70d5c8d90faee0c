import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiHarness, type ApiHarness } from "../../testing/api-harness.test-kit.ts";
import { insertSchool } from "../../db/factories.ts";
import { insertCatalogue } from "../seed.ts";
import { createStaff, staffSignIn } from "../../staff/staff.test-kit.ts";
import type { StaffRole } from "../../../common/staff/staff.ts";
import { advisingTestKit, SESSION } from "./advising.test-kit.ts";

let api: ApiHarness;
let kit: ReturnType<typeof advisingTestKit>;
let biology: number;
let english: number;

beforeAll(async () => {
  api = await createApiHarness();
  await insertCatalogue(api.db);
  kit = advisingTestKit(api);
  biology = api.school.departments[0]!.id;
  english = (
    await insertSchool(api.db, {
      name: "School of Arts",
      departments: ["English"],
      programmes: ["NCE English"],
    })
  ).departments[0]!.id;
});
afterAll(() => api.close());

describe("roles on every adviser endpoint", () => {
  const roles: StaffRole[] = ["registry", "adviser", "bursar", "support", "admin"];
  const tokens = new Map<string, string>();
  let studentId: number;

  beforeAll(async () => {
    // The adviser advises the student, so a refusal below can only come from the role.
    for (const role of roles) {
      const advises = role === "adviser" ? [{ department_id: biology, level: 100 }] : undefined;
      tokens.set(
        role,
        await staffSignIn(api, await createStaff(api, { roles: [role], totp: true, advises })),
      );
    }
    const registered = await kit.student();
    studentId = registered.student.id;
    tokens.set("student", registered.token);
  });

  // Bodies that fail validation: an allowed role gets 400, so nothing changes while roles are checked.
  const endpoints = () => [
    { method: "GET", path: "/staff/registrations", roles: ["adviser", "registry"] },
    { method: "GET", path: `/staff/registrations/${studentId}`, roles: ["adviser", "registry"] },
    {
      method: "POST",
      path: `/staff/registrations/${studentId}/approve`,
      roles: ["adviser"],
      json: { session: SESSION, semester: 9 },
    },
    {
      method: "POST",
      path: `/staff/registrations/${studentId}/return`,
      roles: ["adviser"],
      json: { session: SESSION, semester: 1 },
    },
    {
      method: "POST",
      path: `/staff/registrations/${studentId}/reopen`,
      roles: ["adviser", "registry"],
      json: { session: SESSION, semester: 1 },
    },
  ];

  it.each([0, 1, 2, 3, 4])("endpoint %i: each role, a student and no session", async (index) => {
    const endpoint = endpoints()[index]!;
    for (const who of [...roles, "student", "nobody"]) {
      const response = await api.request(endpoint.path, {
        method: endpoint.method,
        json: endpoint.json,
        token: tokens.get(who),
      });
      const allowed = endpoint.roles.includes(who);
      const expected =
        who === "nobody" ? 401 : !allowed ? 403 : endpoint.method === "GET" ? 200 : 400;
      expect(response.status, `${endpoint.method} ${endpoint.path} as ${who}`).toBe(expected);
    }
  });
});

describe("an adviser's departments and levels", () => {
  let inScope: number;
  let otherLevel: number;
  let otherDepartment: number;
  let adviser: Awaited<ReturnType<typeof kit.adviser>>;

  beforeAll(async () => {
    adviser = await kit.adviser([100], biology);
    inScope = (await kit.student()).student.id;
    otherLevel = (await kit.student(["BIO 111"], { level: 200 })).student.id;
    otherDepartment = (await kit.student(["BIO 111"], { departmentId: english })).student.id;
  });

  it("lists only the advised students; the registry lists every department", async () => {
    const mine = await kit.list(adviser.token);
    expect(mine.status).toBe(200);
    const ids = mine.body.data.map((row: { student_id: number }) => row.student_id);
    expect(ids).toContain(inScope);
    expect(ids).not.toContain(otherLevel);
    expect(ids).not.toContain(otherDepartment);

    const registry = await staffSignIn(api, await createStaff(api, { roles: ["registry"] }));
    const all = (await kit.list(registry)).body.data.map(
      (row: { student_id: number }) => row.student_id,
    );
    expect(all).toEqual(expect.arrayContaining([inScope, otherLevel, otherDepartment]));
  });

  it.each([
    ["another level", () => otherLevel],
    ["another department", () => otherDepartment],
    ["a student id that does not exist", () => 999_999],
  ])("refuses (403) to open, approve or return a student of %s", async (_case, id) => {
    const studentId = id();
    expect((await kit.review(adviser.token, studentId)).status).toBe(403);
    const approve = await kit.approve(adviser.token, studentId, 1);
    expect(approve.status).toBe(403);
    expect((await approve.json()).error.message).toContain(
      "You do not advise this student's department and level.",
    );
    expect((await kit.sendBack(adviser.token, studentId, "Please add BIO 112.", 1)).status).toBe(
      403,
    );
  });

  it("opens an advised student's registration with may_review; the registry reads it without", async () => {
    const mine = await kit.review(adviser.token, inScope);
    expect(mine.body.data).toMatchObject({
      session: SESSION,
      may_review: true,
      student: { id: inScope, level: 100, department: "Biology" },
    });
    const registry = await staffSignIn(api, await createStaff(api, { roles: ["registry"] }));
    const read = await kit.review(registry, otherDepartment);
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({ may_review: false, student: { department: "English" } });
    expect((await kit.review(registry, 999_999)).status).toBe(404);
  });

  it("a scope given after sign-in applies at once: the next request is allowed", async () => {
    const widened = await kit.adviser([100, 200], biology);
    expect((await kit.approve(widened.token, otherLevel, 1)).status).toBe(200);
  });
});
