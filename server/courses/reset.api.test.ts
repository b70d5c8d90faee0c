import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiHarness, type ApiHarness } from "../testing/api-harness.test-kit.ts";
import { insertCatalogue } from "./seed.ts";
import { courseTestKit } from "./course.test-kit.ts";
import { academicSessions } from "../db/schema.ts";
import { eq } from "drizzle-orm";

let api: ApiHarness;
let kit: ReturnType<typeof courseTestKit>;
let phone = 8038880000;

beforeAll(async () => {
  api = await createApiHarness();
  await insertCatalogue(api.db);
  kit = courseTestKit(api);
});
afterAll(() => api.close());

/** A new signed-in student with BIO 111 + GSE 111 (first) and BIO 121 (second) in 2024/2025. */
async function registeredStudent() {
  phone += 1;
  const student = await api.createStudent({ phone: `0${phone}` });
  const token = await api.signIn(`0${phone}`);
  const courses = await kit.idsOf(token, ["BIO 111", "GSE 111", "BIO 121"]);
  const response = await kit.register(token, {
    courses,
    registration_level: 100,
    session: "2024/2025",
  });
  if (response.status !== 201) throw new Error(`registration failed: ${response.status}`);
  return { student, token };
}

const codesIn = async (token: string, session = "2024/2025") => {
  const body = await (
    await api.request(`/courses/student-view?session=${session}`, { token })
  ).json();
  return body.data.map((course: { code: string }) => course.code);
};

describe("POST /courses/reset/", () => {
  it("removes one semester and leaves the other", async () => {
    const { student, token } = await registeredStudent();
    const response = await kit.reset(token, {
      registration_session: "2024/2025",
      semester: "first",
      student_id: student.id,
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      status: "success",
      message: "Reset successful",
      data: { removed: 2 },
    });
    expect(await codesIn(token)).toEqual(["BIO 121"]);
  });

  it("accepts the student id as a string and narrows to a level when given", async () => {
    const { student, token } = await registeredStudent();
    const elsewhere = await kit.reset(token, {
      registration_session: "2024/2025",
      semester: "second",
      student_id: String(student.id),
      registration_level: 200,
    });
    expect(elsewhere.status).toBe(404);
    expect((await elsewhere.json()).error.message).toBe(
      "You have no Second Semester courses registered for 2024/2025.",
    );
    const here = await kit.reset(token, {
      registration_session: "2024/2025",
      semester: "second",
      student_id: String(student.id),
      registration_level: 100,
    });
    expect(here.status).toBe(200);
    expect(await codesIn(token)).toEqual(["BIO 111", "GSE 111"]);
  });

  it("refuses another student's id with 403 and removes nothing", async () => {
    const victim = await registeredStudent();
    const attacker = await registeredStudent();
    const response = await kit.reset(attacker.token, {
      registration_session: "2024/2025",
      semester: "first",
      student_id: victim.student.id,
    });
    expect(response.status).toBe(403);
    expect((await response.json()).error.message).toBe(
      "You can only reset your own course registration.",
    );
    expect(await codesIn(victim.token)).toEqual(["BIO 111", "GSE 111", "BIO 121"]);
  });

  it("refuses an approved semester with the spec's sentence", async () => {
    const { student, token } = await registeredStudent();
    await kit.approve(student.id, "2024/2025", 1);
    const response = await kit.reset(token, {
      registration_session: "2024/2025",
      semester: "first",
      student_id: student.id,
    });
    expect(response.status).toBe(403);
    expect((await response.json()).error.message).toBe(
      "You cannot delete courses after the Course Advisor have approved your course registration.",
    );
    expect(await codesIn(token)).toEqual(["BIO 111", "GSE 111", "BIO 121"]);
    const second = await kit.reset(token, {
      registration_session: "2024/2025",
      semester: "second",
      student_id: student.id,
    });
    expect(second.status).toBe(200);
  });

  it("names the approval, not the closed window, for an approved semester of a closed session", async () => {
    const { student, token } = await registeredStudent();
    await api.db
      .update(academicSessions)
      .set({ courseModifiable: false })
      .where(eq(academicSessions.name, "2024/2025"));
    try {
      const closed = await kit.reset(token, {
        registration_session: "2024/2025",
        semester: "second",
        student_id: student.id,
      });
      expect(closed.status).toBe(403);
      expect((await closed.json()).error.message).toBe(
        "Course registration for 2024/2025 is closed; it can no longer change.",
      );
      await kit.approve(student.id, "2024/2025", 2);
      const approved = await kit.reset(token, {
        registration_session: "2024/2025",
        semester: "second",
        student_id: student.id,
      });
      expect((await approved.json()).error.message).toBe(
        "You cannot delete courses after the Course Advisor have approved your course registration.",
      );
      expect(await codesIn(token)).toHaveLength(3);
    } finally {
      await api.db
        .update(academicSessions)
        .set({ courseModifiable: true })
        .where(eq(academicSessions.name, "2024/2025"));
    }
  });

  it("refuses a session that does not exist and a semester with nothing registered", async () => {
    const { student, token } = await registeredStudent();
    const missing = await kit.reset(token, {
      registration_session: "2031/2032",
      semester: "first",
      student_id: student.id,
    });
    expect(missing.status).toBe(400);
    expect((await missing.json()).error.message).toBe(
      "There is no 2031/2032 session. Choose a session from the list.",
    );
    await kit.reset(token, {
      registration_session: "2024/2025",
      semester: "first",
      student_id: student.id,
    });
    const empty = await kit.reset(token, {
      registration_session: "2024/2025",
      semester: "first",
      student_id: student.id,
    });
    expect(empty.status).toBe(404);
    expect((await empty.json()).error.message).toBe(
      "You have no First Semester courses registered for 2024/2025.",
    );
  });

  it.each([
    ["no body fields", {}, "Select a session"],
    [
      "semester 1",
      { registration_session: "2024/2025", semester: 1, student_id: 1 },
      "Choose the first or second semester.",
    ],
    [
      "semester third",
      { registration_session: "2024/2025", semester: "third", student_id: 1 },
      "Choose the first or second semester.",
    ],
    [
      "no student id",
      { registration_session: "2024/2025", semester: "first" },
      "The student id must be a number.",
    ],
    [
      "a student id of text",
      { registration_session: "2024/2025", semester: "first", student_id: "me" },
      "The student id must be a number.",
    ],
    [
      "a bad session",
      { registration_session: "24/25", semester: "first", student_id: 1 },
      "Choose a session such as 2024/2025.",
    ],
    [
      "a bad level",
      {
        registration_session: "2024/2025",
        semester: "first",
        student_id: 1,
        registration_level: 50,
      },
      "Choose a level from 100 to 500.",
    ],
  ])("refuses %s with a 400", async (_case, json, message) => {
    const { token } = await registeredStudent();
    const response = await kit.reset(token, json);
    expect(response.status).toBe(400);
    expect((await response.json()).error.message).toBe(message);
  });

  it("refuses without a session", async () => {
    expect((await api.request("/courses/reset/", { method: "POST", json: {} })).status).toBe(401);
  });
});
