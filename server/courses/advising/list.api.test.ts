import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiHarness, type ApiHarness } from "../../testing/api-harness.test-kit.ts";
import { insertCatalogue } from "../seed.ts";
import { REGISTRATION_PAGE_SIZE } from "../../../common/courses/advising.ts";
import { eq } from "drizzle-orm";
import { courseRegistrations, courses } from "../../db/schema.ts";
import { advisingTestKit, SESSION } from "./advising.test-kit.ts";

let api: ApiHarness;
let kit: ReturnType<typeof advisingTestKit>;
let adviser: Awaited<ReturnType<ReturnType<typeof advisingTestKit>["adviser"]>>;
const ids: Record<string, number> = {};

beforeAll(async () => {
  api = await createApiHarness();
  await insertCatalogue(api.db);
  kit = advisingTestKit(api);
  adviser = await kit.adviser([100, 200]);
  ids.approved = (await kit.student(["BIO 111"], { surname: "Adamu" })).student.id;
  ids.returned = (await kit.student(["BIO 111", "BIO 121"], { surname: "Bako" })).student.id;
  ids.pending = (await kit.student(["BIO 111", "GSE 111"], { surname: "Chukwu" })).student.id;
  ids.secondLevel = (await kit.student([], { surname: "Danjuma", level: 200 })).student.id;
  await kit.approve(adviser.token, ids.approved, 1);
  await kit.sendBack(adviser.token, ids.returned, "Please add GSE 111.", 1);
  await kit.approve(adviser.token, ids.returned, 2);
});
afterAll(() => api.close());

const rowsOf = async (query: Record<string, string> = {}) =>
  (await kit.list(adviser.token, { status: "all", ...query })).body;
/** The list as it opens: no filter in the address. */
const opening = async (query: Record<string, string> = {}) => {
  const response = await api.request(`/staff/registrations?${new URLSearchParams(query)}`, {
    token: adviser.token,
  });
  return { status: response.status, body: await response.json() };
};

describe("the registrations list", () => {
  it("gives each student's units and status, semester by semester", async () => {
    const { data, session } = await rowsOf();
    expect(session).toBe("2024/2025");
    const byId = new Map(data.map((row: { student_id: number }) => [row.student_id, row]));
    expect(byId.get(ids.approved)).toMatchObject({
      total_units: 4,
      status: "approved",
      first_semester: "approved",
      second_semester: "not_submitted",
      level: 100,
      department: "Biology",
    });
    // A returned semester waits on the student; the approved one is done.
    expect(byId.get(ids.returned)).toMatchObject({
      total_units: 8,
      status: "returned",
      first_semester: "returned",
      second_semester: "approved",
    });
    expect(byId.get(ids.pending)).toMatchObject({
      total_units: 6,
      status: "pending",
      first_semester: "pending",
    });
    expect(byId.get(ids.secondLevel)).toMatchObject({
      total_units: 0,
      status: "not_submitted",
      level: 200,
    });
  });

  it.each([
    ["pending", "pending"],
    ["returned", "returned"],
    ["approved", "approved"],
    ["not_submitted", "secondLevel"],
  ])("filters by status %s", async (status, who) => {
    const { data, total } = await rowsOf({ status });
    expect(data.map((row: { student_id: number }) => row.student_id)).toEqual([ids[who]]);
    expect(total).toBe(1);
  });

  it("filters by level and department", async () => {
    expect(
      (await rowsOf({ level: "200" })).data.map((row: { student_id: number }) => row.student_id),
    ).toEqual([ids.secondLevel]);
    expect((await rowsOf({ department_id: String(api.school.departments[0]!.id) })).total).toBe(4);
    expect((await rowsOf({ department_id: "999" })).total).toBe(0);
  });

  it("lists another session's statuses when asked", async () => {
    const { data, session } = await rowsOf({ session: "2023/2024" });
    expect(session).toBe("2023/2024");
    expect(data.every((row: { status: string }) => row.status === "not_submitted")).toBe(true);
  });

  it("pages on the server, sorted by department, level and name", async () => {
    for (let i = 0; i < REGISTRATION_PAGE_SIZE; i++)
      await kit.student([], { surname: `Zubairu${String(i).padStart(2, "0")}` });
    const first = await rowsOf({ level: "100" });
    expect(first.total).toBe(REGISTRATION_PAGE_SIZE + 3);
    expect(first.data).toHaveLength(REGISTRATION_PAGE_SIZE);
    expect(first.data.slice(0, 3).map((row: { name: string }) => row.name.split(" ")[0])).toEqual([
      "Adamu",
      "Bako",
      "Chukwu",
    ]);
    const second = await rowsOf({ level: "100", page: "2" });
    expect(second.data).toHaveLength(3);
    expect(second.page).toBe(2);
  });
});

describe("the list as it opens: what waits for the adviser, across sessions", () => {
  it("lists pending registrations of every session, first submissions before semesters changed after a return", async () => {
    const older = (await kit.student([], { surname: "Ekwueme" })).student.id;
    const [course] = await api.db.select().from(courses).where(eq(courses.code, "BIO 111"));
    await api.db.insert(courseRegistrations).values({
      studentId: older,
      courseId: course!.id,
      session: "2023/2024",
      level: 100,
      semester: 1,
    });
    // The returned student adds the course the note asked for: pending again, changed since the return.
    const returned = await kit.student(["BIO 111"], { surname: "Fashola" });
    await kit.sendBack(adviser.token, returned.student.id, "Add GSE 111, it is compulsory.", 1);
    const registered = await kit.courses.register(returned.token, {
      courses: await kit.courses.idsOf(returned.token, ["GSE 111"]),
      registration_level: 100,
      session: SESSION,
    });
    expect(registered.status).toBe(201);

    const { status, body } = await opening();
    expect(status).toBe(200);
    expect(body).toMatchObject({ session: null, status: "waiting" });
    const rows = body.data.map(
      (row: { student_id: number; session: string; changed_since_return: boolean }) => [
        row.student_id,
        row.session,
        row.changed_since_return,
      ],
    );
    expect(rows).toEqual([
      [ids.pending, SESSION, false],
      [older, "2023/2024", false],
      [returned.student.id, SESSION, true],
    ]);
    expect(body.total).toBe(3);

    // Approving clears the mark; the not-submitted students stay reachable by the filter.
    await kit.approve(adviser.token, returned.student.id, 1);
    expect(
      (await opening()).body.data.map((row: { student_id: number }) => row.student_id),
    ).toEqual([ids.pending, older]);
    expect(
      (await opening({ session: "2023/2024" })).body.data.map(
        (row: { student_id: number }) => row.student_id,
      ),
    ).toEqual([older]);
    const notSubmitted = await opening({ status: "not_submitted" });
    expect(notSubmitted.body.session).toBe(SESSION);
    expect(notSubmitted.body.total).toBeGreaterThan(REGISTRATION_PAGE_SIZE);
  });

  it("refuses a status it does not know", async () => {
    const { status, body } = await opening({ status: "everything" });
    expect(status).toBe(400);
    expect(body.message).toBe(
      "Choose a status: waiting, all, not_submitted, pending, approved or returned.",
    );
  });
});
