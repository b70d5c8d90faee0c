import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { academicSessions, auditLog, students } from "../db/schema.ts";
import { insertSchool } from "../db/factories.ts";
import { insertCatalogue } from "../courses/seed.ts";
import { courseTestKit } from "../courses/course.test-kit.ts";
import { createApiHarness, type ApiHarness } from "../testing/api-harness.test-kit.ts";
import { PromotionPreview, StaffSessionPage } from "../../common/academic-sessions/sessions.ts";
import { createStaff, staffSignIn } from "../staff/staff.test-kit.ts";

let api: ApiHarness;
let token: string;
let phone = 8036660000;

beforeAll(async () => {
  api = await createApiHarness();
  await insertCatalogue(api.db);
  token = await staffSignIn(api, await createStaff(api, { roles: ["registry"] }));
});
afterAll(() => api.close());

const asRegistry = (path: string, init: { method?: string; json?: unknown } = {}) =>
  api.request(path, { ...init, token });
const sessionId = async (name: string) =>
  (await api.db.select().from(academicSessions).where(eq(academicSessions.name, name)))[0]!.id;
const currentNames = async () =>
  (await api.db.select().from(academicSessions).where(eq(academicSessions.isCurrent, true))).map(
    (row) => row.name,
  );
const setWindow = async (name: string, json: unknown) =>
  asRegistry(`/staff/sessions/${await sessionId(name)}/registration`, { method: "PATCH", json });

/** A student row only: promotion needs no sign-in (and many sign-ins would meet the rate limit). */
async function newStudent(fields: Partial<typeof students.$inferInsert> = {}) {
  phone += 1;
  return {
    student: await api.createStudent({ phone: `0${phone}`, ...fields }),
    phone: `0${phone}`,
  };
}

async function signedInStudent() {
  const { student, phone } = await newStudent();
  return { student, studentToken: await api.signIn(phone) };
}

describe("sessions", () => {
  it("creates the next session, closed and not current while another is current", async () => {
    const list = StaffSessionPage.parse(await (await asRegistry("/staff/sessions")).json());
    expect(list.next_name).toBe("2025/2026");
    expect(list.data.find((row) => row.is_current)).toMatchObject({
      name: "2024/2025",
      course_modifiable: true,
      window: "open",
    });

    const created = await asRegistry("/staff/sessions", {
      method: "POST",
      json: { name: "2025/2026" },
    });
    expect(created.status).toBe(201);
    expect(await currentNames()).toEqual(["2024/2025"]);
    expect(
      (await asRegistry("/staff/sessions", { method: "POST", json: { name: "2025/2026" } })).status,
    ).toBe(409);
    const bad = await asRegistry("/staff/sessions", {
      method: "POST",
      json: { name: "2025/2027" },
    });
    expect(bad.status).toBe(400);
    expect((await bad.json()).message).toBe(
      "Write the session as two consecutive years, like 2025/2026.",
    );
  });

  it("the student pages follow the current session, not the newest name", async () => {
    const { student, studentToken } = await signedInStudent();
    const read = await (await api.request("/setup/sessions/read", { token: studentToken })).json();
    const current = read.data.data.filter((row: { is_current: boolean }) => row.is_current);
    expect(current.map((row: { name: string }) => row.name)).toEqual(["2024/2025"]);
    const info = await (
      await api.request(`/student/payment-info/${student.id}`, { token: studentToken })
    ).json();
    expect(JSON.stringify(info)).toContain("2024/2025");
  });
});

describe("the registration window", () => {
  // The test clock reads 2025-01-15 09:00 UTC: 10:00 on 15 January in Lagos.
  it("refuses registering and resetting before the opening day and after the closing day, with the day named", async () => {
    const kit = courseTestKit(api);
    const { student, studentToken } = await signedInStudent();
    const register = async () =>
      kit.register(studentToken, {
        courses: await kit.idsOf(studentToken, ["BIO 111"]),
        registration_level: 100,
        session: "2024/2025",
      });
    const reset = () =>
      kit.reset(studentToken, {
        student_id: student.id,
        semester: "first",
        registration_session: "2024/2025",
      });

    expect(
      (
        await setWindow("2024/2025", {
          course_modifiable: true,
          opens_on: "2025-01-16",
          closes_on: "2025-01-31",
        })
      ).status,
    ).toBe(200);
    const early = await register();
    expect(early.status).toBe(403);
    expect((await early.json()).message).toBe(
      "Course registration for 2024/2025 opens on 16 January 2025. Please come back then.",
    );
    const read = await (await api.request("/setup/sessions/read", { token: studentToken })).json();
    expect(
      read.data.data.find((row: { name: string }) => row.name === "2024/2025").course_modifiable,
    ).toBe(false);

    await setWindow("2024/2025", {
      course_modifiable: true,
      opens_on: "2025-01-15",
      closes_on: "2025-01-15",
    });
    expect((await register()).status).toBe(201);

    await setWindow("2024/2025", {
      course_modifiable: true,
      opens_on: "2025-01-01",
      closes_on: "2025-01-14",
    });
    const late = await reset();
    expect(late.status).toBe(403);
    expect((await late.json()).message).toBe(
      "Course registration for 2024/2025 closed on 14 January 2025. See the registry if you still need to register.",
    );
    expect((await register()).status).toBe(403);

    await setWindow("2024/2025", { course_modifiable: false, opens_on: "", closes_on: "" });
    expect((await (await reset()).json()).message).toBe(
      "Course registration for 2024/2025 is closed; it can no longer change.",
    );
    await setWindow("2024/2025", { course_modifiable: true });
    expect((await reset()).status).toBe(200);

    const [entry] = await api.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, "session.registration"));
    expect(entry).toMatchObject({
      before: { registrationOpensOn: null, registrationClosesOn: null },
      after: { registrationOpensOn: "2025-01-16", registrationClosesOn: "2025-01-31" },
    });
  });

  it("refuses a closing date before the opening date and dates that are not dates", async () => {
    const backwards = await setWindow("2024/2025", {
      course_modifiable: true,
      opens_on: "2025-02-01",
      closes_on: "2025-01-01",
    });
    expect(backwards.status).toBe(400);
    expect((await backwards.json()).message).toBe(
      "The closing date must be on or after the opening date.",
    );
    expect(
      (await setWindow("2024/2025", { course_modifiable: true, opens_on: "1/2/2025" })).status,
    ).toBe(400);
    expect((await setWindow("2024/2025", { opens_on: "2025-02-01" })).status).toBe(400);
  });
});

describe("promotion at the start of a session", () => {
  it("previews who moves, then moves exactly them once: final-year students graduate instead", async () => {
    const degree = await insertSchool(api.db, {
      name: "School of Technical Education",
      departments: ["Technical Education"],
      programmes: ["B.Sc.(Ed.) Technical Education"],
    });
    const onDegree = {
      departmentId: degree.departments[0]!.id,
      programmeId: degree.programmes[0]!.id,
    };
    const nce = await Promise.all(
      [100, 200, 300].map(async (level) => (await newStudent({ level })).student),
    );
    const bsc = await Promise.all(
      [300, 400].map(async (level) => (await newStudent({ level, ...onDegree })).student),
    );
    const leaving = (await newStudent({ level: 300, stage: "graduating" })).student;

    const notCurrent = await asRegistry(
      `/staff/sessions/${await sessionId("2025/2026")}/promotion`,
    );
    expect(notCurrent.status).toBe(400);
    expect(
      (
        await asRegistry(`/staff/sessions/${await sessionId("2024/2025")}/promotion`, {
          method: "POST",
          json: {},
        })
      ).status,
    ).toBe(409);

    await asRegistry(`/staff/sessions/${await sessionId("2025/2026")}/current`, { method: "POST" });
    const id = await sessionId("2025/2026");
    const preview = PromotionPreview.parse(
      await (await asRegistry(`/staff/sessions/${id}/promotion`)).json(),
    );
    expect(preview.already).toBeNull();
    expect(preview.groups).toContainEqual({
      programme: "B.Sc.(Ed.) Technical Education",
      from_level: 400,
      to_level: null,
      students: 1,
    });
    expect(preview.groups).toContainEqual({
      programme: "B.Sc.(Ed.) Technical Education",
      from_level: 300,
      to_level: 400,
      students: 1,
    });
    const expectedLevels = new Map(preview.students.map((row) => [row.id, row.to_level]));

    const run = await asRegistry(`/staff/sessions/${id}/promotion`, { method: "POST", json: {} });
    expect(run.status).toBe(200);
    const result = (await run.json()).data;
    expect(result.groups).toEqual(preview.groups);
    expect({ promoted: result.promoted, graduating: result.graduating }).toEqual({
      promoted: preview.promoted,
      graduating: preview.graduating,
    });

    const ids = [...nce, ...bsc, leaving].map((student) => student.id);
    const after = await api.db.select().from(students).where(inArray(students.id, ids));
    const view = (id: number) => after.find((row) => row.id === id)!;
    expect(nce.map((s) => [view(s.id).level, view(s.id).stage])).toEqual([
      [200, "student"],
      [300, "student"],
      [300, "graduating"],
    ]);
    expect(bsc.map((s) => [view(s.id).level, view(s.id).stage])).toEqual([
      [400, "student"],
      [400, "graduating"],
    ]);
    expect([view(leaving.id).level, view(leaving.id).stage]).toEqual([300, "graduating"]);
    for (const row of after.filter((row) => expectedLevels.has(row.id))) {
      const planned = expectedLevels.get(row.id);
      expect(planned === null ? row.stage : row.level).toBe(
        planned === null ? "graduating" : planned,
      );
    }

    const again = await asRegistry(`/staff/sessions/${id}/promotion`, { method: "POST", json: {} });
    expect(again.status).toBe(409);
    expect((await again.json()).message).toBe(
      "Students have already been promoted for 2025/2026; they move only once per session.",
    );
    expect(
      (await api.db.select().from(students).where(eq(students.id, nce[0]!.id)))[0]!.level,
    ).toBe(200);
    const recorded = PromotionPreview.parse(
      await (await asRegistry(`/staff/sessions/${id}/promotion`)).json(),
    );
    expect(recorded.already).toMatchObject({
      promoted: result.promoted,
      graduating: result.graduating,
    });
    const [entry] = await api.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, "session.promote"));
    expect(entry!.after).toMatchObject({
      promoted: result.promoted,
      graduating: result.graduating,
    });
  });

  it("two promotion runs at the same moment move students once", async () => {
    const { student } = await newStudent({ level: 100 });
    await asRegistry("/staff/sessions", { method: "POST", json: { name: "2026/2027" } });
    const id = await sessionId("2026/2027");
    await asRegistry(`/staff/sessions/${id}/current`, { method: "POST" });
    const answers = await Promise.all(
      [1, 2].map(() => asRegistry(`/staff/sessions/${id}/promotion`, { method: "POST", json: {} })),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    expect(
      (await api.db.select().from(students).where(eq(students.id, student.id)))[0]!.level,
    ).toBe(200);
  });
});

// Last: a session made current cannot be left for an older one, so this runs after every test that needs 2025/2026 current.
describe("making a session current", () => {
  it("keeps exactly one session current, even when two officers make different newer ones current at once", async () => {
    await asRegistry("/staff/sessions", { method: "POST", json: { name: "2027/2028" } });
    await asRegistry("/staff/sessions", { method: "POST", json: { name: "2028/2029" } });
    const answers = await Promise.all([
      asRegistry(`/staff/sessions/${await sessionId("2027/2028")}/current`, { method: "POST" }),
      asRegistry(`/staff/sessions/${await sessionId("2028/2029")}/current`, { method: "POST" }),
    ]);
    // One after the other: 2027/2028 then 2028/2029 both succeed; 2028/2029 first leaves 2027/2028 older, and refused.
    expect(
      [
        [200, 200],
        [409, 200],
      ].map(String),
    ).toContain(answers.map((answer) => answer.status).join(","));
    expect(await currentNames()).toEqual(["2028/2029"]);
    const entries = await api.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, "session.make_current"));
    expect(entries.at(-1)).toMatchObject({ after: { current: "2028/2029" } });
  });

  it("refuses an older session and the current one, says what moved, and changes nothing on a refusal", async () => {
    await asRegistry("/staff/sessions", { method: "POST", json: { name: "2029/2030" } });
    const older = await asRegistry(`/staff/sessions/${await sessionId("2024/2025")}/current`, {
      method: "POST",
    });
    expect(older.status).toBe(409);
    expect((await older.json()).message).toBe(
      "Only a session newer than the current one (2028/2029) can be made current; 2024/2025 is older.",
    );
    const same = await asRegistry(`/staff/sessions/${await sessionId("2028/2029")}/current`, {
      method: "POST",
    });
    expect(same.status).toBe(409);
    expect((await same.json()).message).toBe("2028/2029 is already the current session.");
    expect(await currentNames()).toEqual(["2028/2029"]);
    const audits = (
      await api.db.select().from(auditLog).where(eq(auditLog.action, "session.make_current"))
    ).length;

    const newer = await asRegistry(`/staff/sessions/${await sessionId("2029/2030")}/current`, {
      method: "POST",
    });
    expect(newer.status).toBe(200);
    expect((await newer.json()).message).toBe(
      "2029/2030 is now the current session in place of 2028/2029. Students' course registration and school-fee payments move to 2029/2030: the course registration page, the payment page and the dashboard open on 2029/2030. Students' levels change only when you promote them for 2029/2030.",
    );
    expect(
      (await api.db.select().from(auditLog).where(eq(auditLog.action, "session.make_current")))
        .length,
    ).toBe(audits + 1);
    const list = StaffSessionPage.parse(await (await asRegistry("/staff/sessions")).json());
    expect(list.current).toBe("2029/2030");
  });
});
