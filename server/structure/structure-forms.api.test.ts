import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, programmes } from "../db/schema.ts";
import { insertCatalogue } from "../courses/seed.ts";
import { createApiHarness, type ApiHarness } from "../testing/api-harness.test-kit.ts";
import {
  CoursePage,
  FacultyPage,
  MappingPage,
  ProgrammePage,
} from "../../common/structure/structure.ts";
import { createStaff, staffSignIn } from "../staff/staff.test-kit.ts";

let api: ApiHarness;
let token: string;

beforeAll(async () => {
  api = await createApiHarness();
  await insertCatalogue(api.db);
  token = await staffSignIn(api, await createStaff(api, { roles: ["registry"] }));
});
afterAll(() => api.close());

const send = async (method: string, path: string, json?: unknown) => {
  const response = await api.request(path, { method, json, token });
  return { status: response.status, body: await response.json() };
};

describe("adding and renaming one item at a time", () => {
  it("adds a faculty, refuses the same name in other capitals, renames it, and audits both", async () => {
    const added = await send("POST", "/staff/faculties", { name: "  School of  Languages " });
    expect(added).toMatchObject({ status: 201, body: { data: { name: "School of Languages" } } });
    const again = await send("POST", "/staff/faculties", { name: "school of languages" });
    expect(again).toMatchObject({
      status: 409,
      body: { message: 'There is already a faculty named "School of Languages".' },
    });
    const renamed = await send("PATCH", `/staff/faculties/${added.body.data.id}`, {
      name: "School of Nigerian Languages",
    });
    expect(renamed.status).toBe(200);
    const entries = await api.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.entityId, String(added.body.data.id)));
    expect(entries.map((row) => [row.action, row.before, row.after])).toEqual([
      ["faculty.create", null, { name: "School of Languages" }],
      ["faculty.update", { name: "School of Languages" }, { name: "School of Nigerian Languages" }],
    ]);
    const list = FacultyPage.parse(
      await (await api.request("/staff/faculties?q=nigerian", { token })).json(),
    );
    expect(list.data).toEqual([
      expect.objectContaining({
        name: "School of Nigerian Languages",
        departments: 0,
        programmes: 0,
      }),
    ]);
  });

  it("adds a programme with the usual final level unless told, and changes it", async () => {
    const faculty = api.school.faculty.id;
    const nce = await send("POST", "/staff/programmes", {
      name: "NCE Physics/Mathematics",
      faculty_id: faculty,
    });
    expect(nce.body.data.finalLevel).toBe(300);
    const degree = await send("POST", "/staff/programmes", {
      name: "B.Sc.(Ed.) Physics",
      faculty_id: faculty,
      final_level: "500",
    });
    expect(degree.body.data.finalLevel).toBe(500);
    const changed = await send("PATCH", `/staff/programmes/${degree.body.data.id}`, {
      final_level: 400,
    });
    expect(changed.status).toBe(200);
    const [row] = await api.db
      .select()
      .from(programmes)
      .where(eq(programmes.id, degree.body.data.id));
    expect(row!.finalLevel).toBe(400);
    expect(
      (await send("PATCH", `/staff/programmes/${degree.body.data.id}`, { final_level: 600 }))
        .status,
    ).toBe(400);
    expect(
      (await send("POST", "/staff/programmes", { name: "NCE Music", faculty_id: 9999 })).body
        .message,
    ).toBe("Choose a faculty from the list.");
    const list = ProgrammePage.parse(
      await (await api.request("/staff/programmes?q=physics", { token })).json(),
    );
    expect(list.total).toBe(2);
  });

  it("adds a department and moves it to another faculty", async () => {
    const other = await send("POST", "/staff/faculties", { name: "School of Education" });
    const added = await send("POST", "/staff/departments", {
      name: "Physics",
      faculty_id: api.school.faculty.id,
    });
    expect(added.status).toBe(201);
    const moved = await send("PATCH", `/staff/departments/${added.body.data.id}`, {
      faculty_id: other.body.data.id,
    });
    expect(moved.body.data.facultyId).toBe(other.body.data.id);
    expect((await send("PATCH", `/staff/departments/${added.body.data.id}`, {})).status).toBe(400);
    expect((await send("PATCH", "/staff/departments/99999", { name: "Nothing" })).status).toBe(404);
  });

  it("adds a course with a tidy code, edits its title, and offers it to a programme", async () => {
    const added = await send("POST", "/staff/courses", {
      code: "phy111",
      title: "Mechanics",
      unit: "3",
      semester: "first",
    });
    expect(added).toMatchObject({
      status: 201,
      body: { data: { code: "PHY 111", unit: 3, semester: 1 } },
    });
    expect(
      (
        await send("POST", "/staff/courses", {
          code: "PHY 111",
          title: "Again",
          unit: 3,
          semester: 1,
        })
      ).status,
    ).toBe(409);
    const bad = await send("POST", "/staff/courses", {
      code: "PHY 112",
      title: "Heat",
      unit: 0,
      semester: 3,
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.fields).toEqual({
      unit: 'The unit must be a whole number from 1 to 10; "0" is not.',
      semester: 'The semester must be 1, 2, first or second; "3" is not.',
    });
    const edited = await send("PATCH", `/staff/courses/${added.body.data.id}`, {
      title: "Mechanics and Properties of Matter",
    });
    expect(edited.body.data).toMatchObject({
      code: "PHY 111",
      title: "Mechanics and Properties of Matter",
      unit: 3,
    });

    const programme = api.school.programmes[0]!.id;
    const mapped = await send("POST", "/staff/course-mappings", {
      course_code: "PHY 111",
      programme_id: programme,
      level: 100,
      semester: 1,
    });
    expect(mapped).toMatchObject({
      status: 201,
      body: { message: "PHY 111 is now offered to NCE Biology/Chemistry at 100 level." },
    });
    expect(
      (
        await send("POST", "/staff/course-mappings", {
          course_code: "PHY 111",
          programme_id: programme,
          level: 100,
          semester: 1,
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await send("POST", "/staff/course-mappings", {
          course_code: "PHY 999",
          programme_id: programme,
          level: 100,
          semester: 1,
        })
      ).status,
    ).toBe(400);
    const list = MappingPage.parse(
      await (
        await api.request(`/staff/course-mappings?programme_id=${programme}&level=100&q=PHY`, {
          token,
        })
      ).json(),
    );
    expect(list.data).toEqual([
      expect.objectContaining({
        course_code: "PHY 111",
        programme: "NCE Biology/Chemistry",
        level: 100,
        semester: 1,
      }),
    ]);
    const courses = CoursePage.parse(
      await (await api.request("/staff/courses?page=2&page_size=10", { token })).json(),
    );
    expect(courses).toMatchObject({ page: 2, page_size: 10 });
    expect(courses.data).toHaveLength(10);
  });
});
