import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiHarness, type ApiHarness } from "../testing/api-harness.test-kit.ts";
import { insertSchool } from "../db/factories.ts";
import { CourseList } from "../../common/courses/registered-course.ts";
import { MAX_UNITS, totalUnits } from "../../common/courses/registration-status.ts";
import { insertCatalogue } from "./seed.ts";

let api: ApiHarness;
let token: string;
let otherProgrammeId: number;

beforeAll(async () => {
  api = await createApiHarness();
  const arts = await insertSchool(api.db, {
    name: "School of Arts and Social Sciences",
    departments: ["English"],
    programmes: ["NCE English/Social Studies"],
  });
  otherProgrammeId = arts.programmes[0]!.id;
  await insertCatalogue(api.db);
  await api.createStudent({ phone: "08036660001" });
  token = await api.signIn("08036660001");
});
afterAll(() => api.close());

const get = (path: string) => api.request(path, { token });

describe("GET /courses/mapped/read", () => {
  it("lists the student's programme's courses for a level and semester under data.data", async () => {
    const response = await get("/courses/mapped/read?mapped_level=100&semester_int=1");
    expect(response.status).toBe(200);
    const courses = CourseList.parse(await response.json()).data.data;
    expect(courses.map((course) => course.code)).toEqual([
      "BIO 111",
      "BIO 112",
      "BIO 113",
      "BIO 114",
      "CHM 111",
      "CHM 112",
      "CHM 113",
      "CHM 114",
      "EDU 111",
      "EDU 112",
      "EDU 113",
      "EDU 114",
      "GSE 111",
      "GSE 112",
      "GSE 113",
    ]);
    expect(courses.every((course) => course.semester === 1)).toBe(true);
    expect(courses[0]).toMatchObject({ title: "General Biology I", unit: "4" });
  });

  it.each([100, 200, 300, 400, 500])(
    "offers more than the cap per session at %i level",
    async (level) => {
      const courses = CourseList.parse(
        await (await get(`/courses/mapped/read?mapped_level=${level}`)).json(),
      ).data.data;
      expect(courses.filter((course) => course.semester === 1).length).toBeGreaterThanOrEqual(12);
      expect(courses.filter((course) => course.semester === 2).length).toBeGreaterThanOrEqual(12);
      expect(totalUnits(courses)).toBeGreaterThan(MAX_UNITS);
    },
  );

  it("lists another programme's courses when mapped_program names it, general courses shared", async () => {
    const body = await (
      await get(
        `/courses/mapped/read?mapped_level=200&semester_int=2&mapped_program=${otherProgrammeId}`,
      )
    ).json();
    const codes = body.data.data.map((course: { code: string }) => course.code);
    expect(codes).toContain("ENG 221");
    expect(codes).toContain("GSE 221");
    expect(codes.some((code: string) => code.startsWith("BIO"))).toBe(false);
  });

  it("answers an empty list for a programme with no courses", async () => {
    const body = await (
      await get("/courses/mapped/read?mapped_level=100&mapped_program=999999")
    ).json();
    expect(body.data.data).toEqual([]);
  });

  it.each([
    ["", "Choose a level."],
    ["?mapped_level=150", "Choose a level from 100 to 500."],
    ["?mapped_level=abc", "Choose a level."],
    ["?mapped_level=100&semester_int=3", "Choose semester 1 or 2."],
    ["?mapped_level=100&mapped_program=-4", "The programme must be a positive number."],
  ])("refuses %j with a 400", async (query, message) => {
    const response = await get(`/courses/mapped/read${query}`);
    expect(response.status).toBe(400);
    expect((await response.json()).error.message).toBe(message);
  });

  it("refuses without a session", async () => {
    expect((await api.request("/courses/mapped/read?mapped_level=100")).status).toBe(401);
  });
});

describe("GET /courses/all/ (course-code search)", () => {
  it.each([
    ["EDU 11", ["EDU 111", "EDU 112", "EDU 113", "EDU 114"]],
    ["edu11", ["EDU 111", "EDU 112", "EDU 113", "EDU 114"]],
    ["BIO 22", ["BIO 221", "BIO 222", "BIO 223", "BIO 224"]],
  ])("finds codes containing %j in the student's programme", async (code, codes) => {
    const body = await (await get(`/courses/all/?code=${encodeURIComponent(code)}`)).json();
    expect(body.data.data.map((course: { code: string }) => course.code)).toEqual(codes);
  });

  it("narrows to one level and carries the semester", async () => {
    const body = await (await get("/courses/all/?code=GSE&level=100")).json();
    const found = body.data.data as { code: string; semester: number }[];
    expect(found.map((course) => course.code)).toEqual([
      "GSE 111",
      "GSE 112",
      "GSE 113",
      "GSE 121",
      "GSE 122",
      "GSE 123",
    ]);
    expect(found.map((course) => course.semester)).toEqual([1, 1, 1, 2, 2, 2]);
  });

  it("searches another programme by affliate and never matches wildcards", async () => {
    const english = await (
      await get(`/courses/all/?code=ENG 1&affliate=${otherProgrammeId}`)
    ).json();
    expect(english.data.data.length).toBeGreaterThan(0);
    const wildcard = await (await get(`/courses/all/?code=${encodeURIComponent("%_")}`)).json();
    expect(wildcard.data.data).toEqual([]);
    const mine = await (await get("/courses/all/?code=ENG 1")).json();
    expect(mine.data.data).toEqual([]);
  });

  it.each([
    ["", "Type at least 2 characters of a course code."],
    ["?code=E", "Type at least 2 characters of a course code."],
    ["?code=%20E%20", "Type at least 2 characters of a course code."],
    [`?code=${"E".repeat(21)}`, "A course code is at most 20 characters."],
    ["?code=EDU&affliate=x", "The programme must be a number."],
    ["?code=EDU&level=600", "Choose a level from 100 to 500."],
  ])("refuses %j with a 400", async (query, message) => {
    const response = await get(`/courses/all/${query}`);
    expect(response.status).toBe(400);
    expect((await response.json()).error.message).toBe(message);
  });
});

describe("GET /department/all", () => {
  it("answers the departments with their school under results", async () => {
    const body = await (await get("/department/all?page_size=70")).json();
    expect(body.results).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: "Biology", faculty: "School of Sciences" }),
        expect.objectContaining({ name: "English", faculty: "School of Arts and Social Sciences" }),
      ]),
    );
    expect(body.count).toBe(2);
  });

  it("pages", async () => {
    const body = await (await get("/department/all?page_size=1&page=2")).json();
    expect(body.results.map((row: { name: string }) => row.name)).toEqual(["English"]);
  });

  it.each(["?page_size=0", "?page_size=101", "?page_size=x", "?page=0"])(
    "refuses %s with a 400",
    async (query) => {
      expect((await get(`/department/all${query}`)).status).toBe(400);
    },
  );
});
