import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiHarness, type ApiHarness } from "../testing/api-harness.ts";
import { insertCatalogue } from "../courses/seed.ts";
import { REGISTRATION_PAGE_SIZE } from "../../src/lib/staff/registrations.ts";
import { advisingTestKit } from "./advising-test-kit.ts";

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

const rowsOf = async (query: Record<string, string> = {}) => (await kit.list(adviser.token, query)).body;

describe("the registrations list", () => {
  it("gives each student's units and status, semester by semester", async () => {
    const { data, session } = await rowsOf();
    expect(session).toBe("2024/2025");
    const byId = new Map(data.map((row: { student_id: number }) => [row.student_id, row]));
    expect(byId.get(ids.approved)).toMatchObject({ total_units: 4, status: "approved", first_semester: "approved", second_semester: "not_submitted", level: 100, department: "Biology" });
    // A returned semester waits on the student; the approved one is done.
    expect(byId.get(ids.returned)).toMatchObject({ total_units: 8, status: "returned", first_semester: "returned", second_semester: "approved" });
    expect(byId.get(ids.pending)).toMatchObject({ total_units: 6, status: "pending", first_semester: "pending" });
    expect(byId.get(ids.secondLevel)).toMatchObject({ total_units: 0, status: "not_submitted", level: 200 });
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
    expect((await rowsOf({ level: "200" })).data.map((row: { student_id: number }) => row.student_id)).toEqual([ids.secondLevel]);
    expect((await rowsOf({ department_id: String(api.school.departments[0]!.id) })).total).toBe(4);
    expect((await rowsOf({ department_id: "999" })).total).toBe(0);
  });

  it("lists another session's statuses when asked", async () => {
    const { data, session } = await rowsOf({ session: "2023/2024" });
    expect(session).toBe("2023/2024");
    expect(data.every((row: { status: string }) => row.status === "not_submitted")).toBe(true);
  });

  it("pages on the server, sorted by department, level and name", async () => {
    for (let i = 0; i < REGISTRATION_PAGE_SIZE; i++) await kit.student([], { surname: `Zubairu${String(i).padStart(2, "0")}` });
    const first = await rowsOf({ level: "100" });
    expect(first.total).toBe(REGISTRATION_PAGE_SIZE + 3);
    expect(first.data).toHaveLength(REGISTRATION_PAGE_SIZE);
    expect(first.data.slice(0, 3).map((row: { name: string }) => row.name.split(" ")[0])).toEqual(["Adamu", "Bako", "Chukwu"]);
    const second = await rowsOf({ level: "100", page: "2" });
    expect(second.data).toHaveLength(3);
    expect(second.page).toBe(2);
  });
});
