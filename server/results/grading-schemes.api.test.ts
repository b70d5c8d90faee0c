import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, gradingSchemes, resultPublications } from "../db/schema.ts";
import { createApiHarness, type ApiHarness } from "../testing/api-harness.test-kit.ts";
import { createStaff, staffSignIn } from "../staff/staff.test-kit.ts";
import { NCE_SCHEME, type GradingScheme } from "../../common/results/grading.ts";
import { createResultsKit } from "./results.test-kit.ts";

let api: ApiHarness;
let kit: Awaited<ReturnType<typeof createResultsKit>>;
let exams: string;
let examsId: number;
beforeAll(async () => {
  api = await createApiHarness();
  kit = await createResultsKit(api);
  const officer = await createStaff(api, { roles: ["exams"], totp: true });
  examsId = officer.id;
  exams = await staffSignIn(api, officer);
});
afterAll(() => api.close());

/** The NCE scale with A from 75 and B stretched to 74: a stricter college. */
const STRICTER: GradingScheme = {
  ...NCE_SCHEME,
  bands: [
    { min: 75, max: 100, grade: "A", point: 5 },
    { min: 60, max: 74, grade: "B", point: 4 },
    ...NCE_SCHEME.bands.slice(2),
  ],
};

const setScheme = (from_session: string, scheme: unknown) =>
  api.request("/staff/results/grading-schemes", {
    method: "POST",
    token: exams,
    json: { from_session, scheme },
  });
const listed = async () =>
  (
    (await (await api.request("/staff/results/grading-schemes", { token: exams })).json()) as {
      data: { schemes: { from_session: string; scheme: GradingScheme; set_by: string }[] };
    }
  ).data.schemes;
const storedSchemes = () => api.db.select().from(gradingSchemes);

describe("the exams office sets the grading scheme", () => {
  it("grades a session's results by the scheme set from it, lists who set it, and audits it", async () => {
    const lecturer = await kit.lecturer();
    const { course, students } = await kit.courseWithStudents({ approved: 1 });
    const offering = await kit.offeringOf(course.id, [lecturer.member.id]);
    await kit.save(lecturer.token, offering, [
      { student_id: students[0]!.id, ca: 30, exam: 42, special: null },
    ]);
    const gradeNow = async () =>
      (
        (await (await kit.sheet(lecturer.token, offering)).json()) as {
          data: { rows: { total: number; grade: string }[] };
        }
      ).data.rows[0];
    expect(await gradeNow()).toMatchObject({ total: 72, grade: "A" });

    const response = await setScheme("2024/2025", STRICTER);
    expect(response.status).toBe(200);
    expect(await gradeNow()).toMatchObject({ total: 72, grade: "B" });
    const schemes = await listed();
    expect(schemes).toHaveLength(1);
    expect(schemes[0]).toMatchObject({ from_session: "2024/2025", scheme: STRICTER });
    expect(schemes[0]!.set_by).toBeTruthy();
    const audit = await api.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "grading_scheme.set"), eq(auditLog.staffId, examsId)));
    expect(audit).toHaveLength(1);
    expect(audit[0]!.after).toMatchObject({ from_session: "2024/2025", caMax: 40 });
  });

  it.each([
    [
      "a gap between bands",
      { ...NCE_SCHEME, bands: NCE_SCHEME.bands.filter((band) => band.grade !== "C") },
      "Grade D must start where the band above ends (at 59).",
    ],
    [
      "a split that is not 100 marks",
      { ...NCE_SCHEME, caMax: 30 },
      "CA and exam must add up to 100 marks.",
    ],
    [
      "a pass point no grade has",
      { ...NCE_SCHEME, passPoint: 7 },
      "The pass mark must be one of the grade points.",
    ],
    [
      "classes of certificate out of order",
      { ...NCE_SCHEME, certificateClasses: [...NCE_SCHEME.certificateClasses].reverse() },
      "List the classes of certificate highest first, each from a lower CGPA.",
    ],
    [
      "a retake rule it does not know",
      { ...NCE_SCHEME, retakes: "last-attempt" },
      "Choose how a retaken course counts.",
    ],
    [
      "a grade point that is not a number",
      { ...NCE_SCHEME, passPoint: "one" },
      "The pass grade point must be a number.",
    ],
  ])("refuses %s with the reason, and keeps the scheme", async (_, scheme, message) => {
    const before = await storedSchemes();
    const response = await setScheme("2024/2025", scheme);
    expect(response.status).toBe(400);
    expect(JSON.stringify(await response.json())).toContain(message);
    expect(await storedSchemes()).toEqual(before);
  });

  it("refuses a session that does not exist", async () => {
    const response = await setScheme("2031/2032", NCE_SCHEME);
    expect(response.status).toBe(400);
    expect((await response.json()).message).toBe(
      "There is no 2031/2032 session. Choose a session from the list.",
    );
  });

  it("refuses a split that saved scores are above, counting them, and keeps the scheme", async () => {
    const before = await storedSchemes();
    const response = await setScheme("2024/2025", { ...STRICTER, caMax: 25, examMax: 75 });
    expect(response.status).toBe(409);
    expect((await response.json()).message).toBe(
      "1 saved score is above the new maxima (CA 25, exam 75): the lecturers must correct it first, or keep the split.",
    );
    expect(await storedSchemes()).toEqual(before);
  });

  it("refuses to regrade published results, counting only the sessions the new scheme would govern", async () => {
    await api.db.insert(resultPublications).values({
      programmeId: api.school.programmes[0]!.id,
      session: "2023/2024",
      semester: 1,
      boardMeetingOn: "2024-03-01",
      minuteReference: "AB/2024/1",
      publishedBy: examsId,
      publishedAt: new Date(),
    });
    const before = await storedSchemes();
    // From 2022/2023 it would govern 2022/2023 and 2023/2024 (2024/2025 has its own): refused.
    for (const from of ["2022/2023", "2023/2024"]) {
      const response = await setScheme(from, STRICTER);
      expect(response.status).toBe(409);
      expect((await response.json()).message).toBe(
        "Results of 2023/2024 are published under the scheme in force: set a new scheme from a session whose results are not yet published.",
      );
    }
    expect(await storedSchemes()).toEqual(before);
    // 2024/2025 has nothing published: its scheme may still change.
    expect((await setScheme("2024/2025", NCE_SCHEME)).status).toBe(200);
  });
});
