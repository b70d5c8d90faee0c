import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createApiHarness,
  TEST_PASSWORD_COST,
  type ApiHarness,
} from "../testing/api-harness.test-kit.ts";
import { seedCourses } from "../courses/seed.ts";
import { seedDemoStaff } from "../staff/seed.ts";
import { payments } from "../db/schema.ts";
import { seedDemoResults } from "./seed.ts";
import { staffSignIn } from "../staff/staff.test-kit.ts";

let api: ApiHarness;
beforeAll(async () => {
  api = await createApiHarness();
  const chiamaka = await api.createStudent({
    phone: "08030000001",
    level: 200,
    entrySession: "2023/2024",
  });
  await seedCourses(api.db, { approvedHistoryFor: "08030000001" });
  await seedDemoStaff(api.db, TEST_PASSWORD_COST);
  await seedDemoResults(api.db);
  // As the demo's payments seed has it: the first installment of 2023/2024.
  await api.db.insert(payments).values({
    reference: "DEMO-RESULTS-PART",
    studentId: chiamaka.id,
    paymentOption: "part",
    level: 100,
    session: "2023/2024",
    amountKobo: 6_000_000,
    status: "success",
  });
});
afterAll(() => api.close());

describe("the demo's results", () => {
  it("show Chiamaka her published first semester, with one compulsory course to carry over", async () => {
    const token = await api.signIn("08030000001");
    const { data } = await (await api.request("/student/results", { token })).json();
    expect(data.withheld).toEqual([]);
    expect(data.semesters).toHaveLength(1);
    const [semester] = data.semesters;
    expect(semester).toMatchObject({ session: "2023/2024", semester: 1, standing: "good" });
    expect(semester.carry_overs).toHaveLength(1);
    expect(
      semester.courses.filter((course: { grade: string }) => course.grade === "F"),
    ).toHaveLength(1);
  });

  it("put her carry-over into her 2024/2025 registration, required in the first semester", async () => {
    const token = await api.signIn("08030000001");
    const { data } = await (await api.request("/courses/carry-overs", { token })).json();
    expect(data.session).toBe("2024/2025");
    expect(
      data.carry_overs.map((course: { code: string; semester: number; state: string }) => [
        course.code,
        course.semester,
        course.state,
      ]),
    ).toEqual([["BIO 113", 1, "required"]]);
  });

  it("leave the demo lecturer a course of this session still being entered", async () => {
    const token = await staffSignIn(api, { id: 0, email: "lecturer@college.example" }, "demo1234");
    const { data } = await (await api.request("/staff/results/teaching", { token })).json();
    expect(
      data.map((row: { session: string; status: string }) => [row.session, row.status]),
    ).toContainEqual(["2024/2025", "open"]);
    // With a class to score: five students whose registration the adviser approved.
    const open = data.find((row: { session: string }) => row.session === "2024/2025");
    expect(open).toMatchObject({ students: 5, entered: 0 });
    const sheet = (
      await (await api.request(`/staff/results/offerings/${open.id}`, { token })).json()
    ).data;
    expect(sheet.rows.map((row: { matric_no: string }) => row.matric_no)).toEqual([
      "CCE/2024/BIO/0101",
      "CCE/2024/BIO/0102",
      "CCE/2024/BIO/0103",
      "CCE/2024/BIO/0104",
      "CCE/2024/BIO/0105",
    ]);
  });
});
