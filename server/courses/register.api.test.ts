import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { courses as courseTable } from "../db/schema.ts";
import { createApiHarness, type ApiHarness } from "../testing/api-harness.test-kit.ts";
import { StudentView } from "../../common/courses/registered-course.ts";
import { insertCatalogue } from "./seed.ts";
import { courseTestKit } from "./course.test-kit.ts";

let api: ApiHarness;
let kit: ReturnType<typeof courseTestKit>;
let phone = 8037770000;

beforeAll(async () => {
  api = await createApiHarness();
  await insertCatalogue(api.db);
  kit = courseTestKit(api);
});
afterAll(() => api.close());

/** A new signed-in student, so each test starts with nothing registered. */
async function newStudent(level = 100) {
  phone += 1;
  const student = await api.createStudent({ phone: `0${phone}`, level });
  return { student, token: await api.signIn(`0${phone}`) };
}

const FIRST = ["BIO 111", "BIO 112", "CHM 111", "EDU 111", "GSE 111"];

describe("POST /courses/register", () => {
  it("registers the courses in their semesters and student-view shows them", async () => {
    const { token } = await newStudent();
    const courses = await kit.idsOf(token, [...FIRST, "BIO 121"]);
    const response = await kit.register(token, {
      courses,
      registration_level: 100,
      session: "2024/2025",
    });
    expect(response.status).toBe(201);
    expect((await response.json()).data).toEqual({ registered: 6, units: 20 });

    const view = StudentView.parse(
      await (
        await api.request("/courses/student-view?registration_level=100&session=2024/2025", {
          token,
        })
      ).json(),
    );
    expect(view.data.map((course) => [course.code, course.semester, course.unit])).toEqual([
      ["BIO 111", 1, "4"],
      ["BIO 112", 1, "3"],
      ["CHM 111", 1, "4"],
      ["EDU 111", 1, "3"],
      ["GSE 111", 1, "2"],
      ["BIO 121", 2, "4"],
    ]);
    expect(view.approvals).toEqual([]);
    const dashboard = await (await api.request("/courses/student-view", { token })).json();
    expect(dashboard.data).toHaveLength(6);
  });

  it("adds to an earlier registration up to exactly 80 units, then refuses naming the limit", async () => {
    const { token } = await newStudent();
    const offered = [...(await kit.offered(token)).values()];
    const first = offered.filter((course) => course.semester === 1);
    const second = offered.filter((course) => course.semester === 2);
    const register = (ids: number[]) =>
      kit.register(token, { courses: ids, registration_level: 100, session: "2024/2025" });
    expect((await register(first.map((course) => course.course_id))).status).toBe(201); // 43 units
    // Second semester in code order: BIO 4,3,3,3 CHM 4,3,3,3 EDU 3,3,2,3 → 37 more makes 80.
    const upTo80 = second.slice(0, 12).map((course) => course.course_id);
    expect((await register(upTo80)).status).toBe(201);
    const over = await register([second[12]!.course_id]);
    expect(over.status).toBe(409);
    const body = await over.json();
    expect(body.error.message).toBe("Cannot exceed maximum of 80 units!");
    expect(body.error.fields.courses).toBe(
      "You have 80 units registered for 2024/2025; these courses add 2.",
    );
  });

  it("refuses a request that alone passes 80 units and registers nothing of it", async () => {
    const { token } = await newStudent();
    const all = [...(await kit.offered(token)).values()].map((course) => course.course_id);
    const response = await kit.register(token, {
      courses: all,
      registration_level: 100,
      session: "2024/2025",
    });
    expect(response.status).toBe(409);
    expect((await response.json()).message).toBe("Cannot exceed maximum of 80 units!");
    const view = await (
      await api.request("/courses/student-view?session=2024/2025", { token })
    ).json();
    expect(view.data).toEqual([]);
  });

  it("refuses a course registered before, and one listed twice", async () => {
    const { token } = await newStudent();
    const [bio, chm] = await kit.idsOf(token, ["BIO 111", "CHM 111"]);
    expect(
      (await kit.register(token, { courses: [bio], registration_level: 100, session: "2024/2025" }))
        .status,
    ).toBe(201);
    const again = await kit.register(token, {
      courses: [chm, bio],
      registration_level: 100,
      session: "2024/2025",
    });
    expect(again.status).toBe(409);
    expect((await again.json()).error.message).toBe("BIO 111 is already registered for 2024/2025.");
    const twice = await kit.register(token, {
      courses: [chm, chm],
      registration_level: 100,
      session: "2024/2025",
    });
    expect(twice.status).toBe(409);
    expect((await twice.json()).error.message).toBe(
      "CHM 111 is listed twice; register each course once.",
    );
  });

  it("refuses unknown course ids and courses not offered to the programme or level", async () => {
    const { student, token } = await newStudent(200);
    const [bio200] = await kit.idsOf(token, ["BIO 211"], 200);
    const unknown = await kit.register(token, {
      courses: [bio200, 99_999],
      registration_level: 200,
      session: "2024/2025",
    });
    expect(unknown.status).toBe(400);
    expect((await unknown.json()).error.message).toBe("There is no course with id 99999.");
    // The largest id a course can have goes to the database as one array parameter, and is simply unknown.
    const largest = await kit.register(token, {
      courses: [bio200, 2_147_483_647],
      registration_level: 200,
      session: "2024/2025",
    });
    expect(largest.status).toBe(400);
    expect((await largest.json()).error.message).toBe("There is no course with id 2147483647.");

    const wrongLevel = await kit.register(token, {
      courses: [bio200],
      registration_level: 100,
      session: "2024/2025",
    });
    expect(wrongLevel.status).toBe(400);
    expect((await wrongLevel.json()).error.message).toBe(
      "BIO 211 is not offered to your programme at 100 level.",
    );

    // An English course exists in the catalogue but not in this student's programme.
    const [english] = await api.db
      .select()
      .from(courseTable)
      .where(eq(courseTable.code, "ENG 111"));
    const notMine = await kit.register(token, {
      courses: [english!.id],
      registration_level: 200,
      session: "2024/2025",
    });
    expect(notMine.status).toBe(400);
    expect((await notMine.json()).error.message).toBe(
      "ENG 111 is not offered to your programme at 200 level.",
    );
    // Each refusal changed nothing: not even the offered course sent beside the unknown ones.
    const { rows } = await api.db.execute<{ held: number }>(
      sql`select count(*)::int as held from course_registrations where student_id = ${student.id}`,
    );
    expect(rows[0]!.held).toBe(0);
  });

  it("refuses a level above the student's own", async () => {
    const { token } = await newStudent(100);
    const response = await kit.register(token, {
      courses: [1],
      registration_level: 200,
      session: "2024/2025",
    });
    expect(response.status).toBe(400);
    expect((await response.json()).error.message).toBe(
      "You are in 100 level; you cannot register 200 level courses.",
    );
  });

  it("refuses a session that does not exist and one that is closed", async () => {
    const { token } = await newStudent();
    const courses = await kit.idsOf(token, ["BIO 111"]);
    const missing = await kit.register(token, {
      courses,
      registration_level: 100,
      session: "2030/2031",
    });
    expect(missing.status).toBe(400);
    expect((await missing.json()).error.message).toBe(
      "There is no 2030/2031 session. Choose a session from the list.",
    );
    const closed = await kit.register(token, {
      courses,
      registration_level: 100,
      session: "2023/2024",
    });
    expect(closed.status).toBe(403);
    expect((await closed.json()).error.message).toBe(
      "Course registration for 2023/2024 is closed; it can no longer change.",
    );
  });

  it("refuses adding to a semester the Course Advisor approved, but not to the other", async () => {
    const { student, token } = await newStudent();
    const [bio111, bio112, bio121] = await kit.idsOf(token, ["BIO 111", "BIO 112", "BIO 121"]);
    await kit.register(token, { courses: [bio111], registration_level: 100, session: "2024/2025" });
    await kit.approve(student.id, "2024/2025", 1);
    const refused = await kit.register(token, {
      courses: [bio112],
      registration_level: 100,
      session: "2024/2025",
    });
    expect(refused.status).toBe(403);
    expect((await refused.json()).error.message).toBe(
      "The Course Advisor has approved your First Semester registration for 2024/2025; no courses can be added to it.",
    );
    const second = await kit.register(token, {
      courses: [bio121],
      registration_level: 100,
      session: "2024/2025",
    });
    expect(second.status).toBe(201);
    const view = await (
      await api.request("/courses/student-view?session=2024/2025", { token })
    ).json();
    expect(view.approvals).toEqual([
      {
        semester: 1,
        approved_by: "Dr. Funmilayo Adeyemi",
        approved_at: "2024-11-20T09:00:00.000Z",
      },
    ]);
  });

  it("answers an approval's instant in UTC to the millisecond, whatever precision the database kept", async () => {
    const { student, token } = await newStudent();
    const [bio111] = await kit.idsOf(token, ["BIO 111"]);
    await kit.register(token, { courses: [bio111], registration_level: 100, session: "2024/2025" });
    await api.db
      .execute(sql`insert into registration_approvals (student_id, session, semester, approved_by, approved_at)
      values (${student.id}, '2024/2025', 1, 'Dr. Funmilayo Adeyemi', '2024-11-20 10:00:00.123987+01')`);
    const view = await (
      await api.request("/courses/student-view?session=2024/2025", { token })
    ).json();
    expect(view.approvals).toEqual([
      {
        semester: 1,
        approved_by: "Dr. Funmilayo Adeyemi",
        approved_at: "2024-11-20T09:00:00.123Z",
      },
    ]);
  });

  it("shows one level's registrations when asked for a level, every level's without", async () => {
    const { token } = await newStudent(200);
    const [bio111] = await kit.idsOf(token, ["BIO 111"]);
    await kit.register(token, { courses: [bio111], registration_level: 100, session: "2024/2025" });
    const codesAt = async (query: string) =>
      (
        (await (
          await api.request(`/courses/student-view?session=2024/2025${query}`, { token })
        ).json()) as StudentView
      ).data.map((course) => [course.code, course.registration_level]);
    expect(await codesAt("")).toEqual([["BIO 111", 100]]);
    expect(await codesAt("&registration_level=100")).toEqual([["BIO 111", 100]]);
    expect(await codesAt("&registration_level=200")).toEqual([]);
  });

  it.each([
    ["no body fields", {}, "Choose the courses to register."],
    [
      "no courses",
      { courses: [], registration_level: 100, session: "2024/2025" },
      "Choose at least one course to register.",
    ],
    ["no session", { courses: [1], registration_level: 100 }, "Select a session"],
    [
      "an empty session",
      { courses: [1], registration_level: 100, session: "" },
      "Choose a session such as 2024/2025.",
    ],
    [
      "a malformed session",
      { courses: [1], registration_level: 100, session: "2024-25" },
      "Choose a session such as 2024/2025.",
    ],
    ["no level", { courses: [1], session: "2024/2025" }, "Choose a level."],
    [
      "a level of 150",
      { courses: [1], registration_level: 150, session: "2024/2025" },
      "Choose a level from 100 to 500.",
    ],
    [
      "a course id of text",
      { courses: ["BIO"], registration_level: 100, session: "2024/2025" },
      "A course id must be a number.",
    ],
    [
      "a negative course id",
      { courses: [-1], registration_level: 100, session: "2024/2025" },
      "A course id must be a positive number.",
    ],
    [
      "a course id past the largest a course can have",
      { courses: [2_147_483_648], registration_level: 100, session: "2024/2025" },
      "A course id is out of range.",
    ],
    [
      "courses as a string",
      { courses: "1,2", registration_level: 100, session: "2024/2025" },
      "Choose the courses to register.",
    ],
    [
      "61 courses",
      {
        courses: Array.from({ length: 61 }, (_, i) => i + 1),
        registration_level: 100,
        session: "2024/2025",
      },
      "Register at most 60 courses at a time.",
    ],
  ])("refuses %s with a 400", async (_case, json, message) => {
    const { token } = await newStudent();
    const response = await kit.register(token, json);
    expect(response.status).toBe(400);
    expect((await response.json()).error.message).toBe(message);
  });

  it("refuses a body that is not JSON, and a request without a session", async () => {
    const { token } = await newStudent();
    const notJson = await api.request("/courses/register", {
      method: "POST",
      token,
      headers: { "content-type": "application/json" },
      body: "courses=1",
    });
    expect(notJson.status).toBe(400);
    const anonymous = await api.request("/courses/register", {
      method: "POST",
      json: { courses: [1] },
    });
    expect(anonymous.status).toBe(401);
  });
});

describe("GET /courses/validated/first/{level} (the slip's data)", () => {
  it("answers both semesters and the approvals under data.data[0]", async () => {
    const { student, token } = await newStudent();
    const courses = await kit.idsOf(token, ["BIO 111", "GSE 111", "BIO 121"]);
    await kit.register(token, { courses, registration_level: 100, session: "2024/2025" });
    await kit.approve(student.id, "2024/2025", 2);
    const body = await (
      await api.request("/courses/validated/first/100?session=2024/2025", { token })
    ).json();
    const [slip] = body.data.data;
    expect(slip.level).toBe(100);
    expect(slip.first_semester.map((course: { code: string }) => course.code)).toEqual([
      "BIO 111",
      "GSE 111",
    ]);
    expect(slip.second_semester.map((course: { code: string }) => course.code)).toEqual([
      "BIO 121",
    ]);
    expect(slip.approvals).toHaveLength(1);
    const current = await (await api.request("/courses/validated/first/100", { token })).json();
    expect(current.data.data[0].session).toBe("2024/2025");
  });

  it("answers an empty list when nothing is registered at that level and session", async () => {
    const { token } = await newStudent(200);
    const body = await (
      await api.request("/courses/validated/first/200?session=2022/2023", { token })
    ).json();
    expect(body.data.data).toEqual([]);
  });

  it.each([
    "/courses/validated/first/150",
    "/courses/validated/first/x",
    "/courses/validated/first/100?session=bad",
  ])("refuses %s with a 400", async (path) => {
    const { token } = await newStudent();
    expect((await api.request(path, { token })).status).toBe(400);
  });
});

describe("GET /courses/student-view", () => {
  it.each(["?session=2024-2025", "?registration_level=600", "?session=%27%3B%20drop"])(
    "refuses %s with a 400",
    async (query) => {
      const { token } = await newStudent();
      expect((await api.request(`/courses/student-view${query}`, { token })).status).toBe(400);
    },
  );
});
