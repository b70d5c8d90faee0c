import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  academicSessions,
  auditLog,
  courseMappings,
  courseRegistrations,
  payments,
  programmes,
  resultPublications,
} from "../db/schema.ts";
import { createApiHarness, type ApiHarness } from "../testing/api-harness.test-kit.ts";
import { createStaff, staffSignIn } from "../staff/staff.test-kit.ts";
import { createResultsKit } from "./results.test-kit.ts";

let api: ApiHarness;
let kit: Awaited<ReturnType<typeof createResultsKit>>;
let head: string;
let exams: string;
let programmeId: number;
beforeAll(async () => {
  api = await createApiHarness();
  kit = await createResultsKit(api);
  const hod = await createStaff(api, { roles: ["hod"] });
  head = await staffSignIn(api, hod);
  await api.request("/staff/results/department-heads", {
    method: "POST",
    token: kit.registryToken,
    json: { department_id: kit.department.id, staff_id: hod.id },
  });
  exams = await staffSignIn(api, await createStaff(api, { roles: ["exams"], totp: true }));
  programmeId = api.school.programmes[0]!.id;
});
afterAll(() => api.close());

const SEMESTER = { session: "2024/2025", semester: 1 };
const computed = () =>
  api.request(`/staff/results/computed?programme_id=${programmeId}&session=2024/2025&semester=1`, {
    token: exams,
  });
const publish = (extra: Record<string, unknown> = {}) =>
  api.request("/staff/results/publish", {
    method: "POST",
    token: exams,
    json: {
      programme_id: programmeId,
      ...SEMESTER,
      board_meeting_on: "2025-03-14",
      minute_reference: "AB/2025/03/7",
      ...extra,
    },
  });

/** Two courses the same students took: EDU (3 units, compulsory in their plan) and GSE (2 units). */
let people: Awaited<ReturnType<ApiHarness["createStudent"]>>[];
let offerings: { edu: number; gse: number };

describe("publishing a programme's semester", () => {
  it("is refused while a course is not approved, naming it, and changes nothing", async () => {
    const lecturer = await kit.lecturer();
    const edu = await kit.courseWithStudents({ approved: 2, units: 3 });
    people = edu.students;
    await api.db.insert(courseMappings).values({
      courseId: edu.course.id,
      programmeId,
      level: 100,
      semester: 1,
      compulsory: true,
    });
    const gse = await kit.courseWithStudents({ approved: 0, units: 2 });
    // The same two students register GSE too.
    await api.db.insert(courseRegistrations).values(
      people.map((person) => ({
        studentId: person.id,
        courseId: gse.course.id,
        session: "2024/2025",
        level: 100,
        semester: 1,
      })),
    );
    offerings = {
      edu: await kit.offeringOf(edu.course.id, [lecturer.member.id]),
      gse: await kit.offeringOf(gse.course.id, [lecturer.member.id]),
    };
    const [good, weak] = people;
    await kit.save(lecturer.token, offerings.edu, [
      { student_id: good!.id, ca: 35, exam: 45 }, // 80 A 5 × 3
      { student_id: weak!.id, ca: 10, exam: 20 }, // 30 F 0 × 3
    ]);
    await kit.save(lecturer.token, offerings.gse, [
      { student_id: good!.id, ca: 25, exam: 30 }, // 55 C 3 × 2
      { student_id: weak!.id, ca: 20, exam: 21 }, // 41 E 1 × 2
    ]);
    await kit.submit(lecturer.token, offerings.edu);
    await kit.submit(lecturer.token, offerings.gse);
    await api.request(`/staff/results/review/${offerings.edu}/approve`, {
      method: "POST",
      token: head,
    });

    const waiting = (await (await computed()).json()).data.waiting;
    expect(waiting).toEqual([{ course_code: expect.stringMatching(/^RES /), status: "submitted" }]);
    const refused = await publish();
    expect(refused.status).toBe(409);
    expect((await refused.json()).message).toBe(
      `1 course is not approved yet: ${waiting[0].course_code} (submitted). Publish when every course is approved.`,
    );
    expect(await api.db.select().from(resultPublications)).toEqual([]);
  });

  it("shows the exams office where each department's results stand", async () => {
    const response = await api.request("/staff/results/overview?session=2024/2025&semester=1", {
      token: exams,
    });
    const { data } = await response.json();
    expect(data.departments).toEqual([
      {
        department: kit.department.name,
        open: 0,
        submitted: 1,
        approved: 1,
        courses: expect.arrayContaining([
          expect.objectContaining({ id: offerings.edu, status: "approved" }),
          expect.objectContaining({ id: offerings.gse, status: "submitted" }),
        ]),
      },
    ]);
    expect(data.published).toEqual([]);
    const bad = await api.request("/staff/results/overview?session=2024&semester=3", {
      token: exams,
    });
    expect(bad.status).toBe(400);
  });

  it("shows the board each student's GPA, CGPA, standing and carry-overs from approved results", async () => {
    await api.request(`/staff/results/review/${offerings.gse}/approve`, {
      method: "POST",
      token: head,
    });
    const { data } = await (await computed()).json();
    expect(data.waiting).toEqual([]);
    expect(data.published).toBeNull();
    const [good, weak] = people;
    expect(data.students).toEqual([
      expect.objectContaining({
        student_id: good!.id,
        units: 5,
        gpa: 4.2,
        cgpa: 4.2,
        standing: "good",
        carry_overs: [],
      }),
      // 2 / 5 = 0.40: below the 1.50 line, so on probation, with the compulsory course carried over.
      expect.objectContaining({
        student_id: weak!.id,
        units: 5,
        gpa: 0.4,
        cgpa: 0.4,
        standing: "probation",
      }),
    ]);
    const weakRow = data.students.find(
      (row: { student_id: number }) => row.student_id === weak!.id,
    );
    expect(weakRow.carry_overs).toHaveLength(1);
  });

  it("refuses a publication without the board's date and minute, then publishes once, audited", async () => {
    expect((await publish({ minute_reference: " " })).status).toBe(400);
    expect((await publish({ board_meeting_on: "14/03/2025" })).status).toBe(400);
    expect(await api.db.select().from(resultPublications)).toEqual([]);

    expect((await publish()).status).toBe(200);
    const again = await publish();
    expect(again.status).toBe(409);
    const [row] = await api.db.select().from(resultPublications);
    expect(row).toMatchObject({ boardMeetingOn: "2025-03-14", minuteReference: "AB/2025/03/7" });
    const audits = await api.db
      .select()
      .from(auditLog)
      .where(
        and(
          eq(auditLog.entity, "result_publication"),
          eq(auditLog.action, "result_publication.publish"),
        ),
      );
    expect(audits).toHaveLength(1);
  });
});

describe("a student's results", () => {
  const mine = async (person: { phone: string }) =>
    (
      await (
        await api.request("/student/results", { token: await api.signIn(person.phone) })
      ).json()
    ).data;

  it("are withheld until the session's school fee is paid, saying why", async () => {
    const data = await mine(people[0]!);
    expect(data.semesters).toEqual([]);
    expect(data.withheld).toEqual([
      {
        session: "2024/2025",
        semester: 1,
        reason: "Your 2024/2025 results show once your school fees for 2024/2025 are paid.",
      },
    ]);
  });

  it("show the published semester once the fee is paid: courses, GPA, CGPA and standing", async () => {
    const [good, weak] = people;
    for (const person of [good!, weak!]) {
      await api.db.insert(payments).values({
        reference: `RES-PAID-${person.id}`,
        studentId: person.id,
        paymentOption: "full",
        level: 100,
        session: "2024/2025",
        amountKobo: 12_000_000,
        status: "success",
      });
    }
    const data = await mine(good!);
    expect(data.withheld).toEqual([]);
    expect(data.semesters).toEqual([
      expect.objectContaining({
        session: "2024/2025",
        semester: 1,
        gpa: 4.2,
        cgpa: 4.2,
        units: 5,
        standing: "good",
      }),
    ]);
    expect(data.semesters[0].courses.map((row: { grade: string }) => row.grade)).toEqual([
      "A",
      "C",
    ]);
    const weakData = await mine(weak!);
    expect(weakData.semesters[0]).toMatchObject({ standing: "probation", gpa: 0.4 });
    expect(weakData.semesters[0].carry_overs).toHaveLength(1);
  });

  it("are empty for a student of a programme with nothing published, and need a student's session", async () => {
    const [elsewhere] = await api.db
      .insert(programmes)
      .values({
        name: "NCE Physics/Mathematics",
        facultyId: api.school.faculty.id,
        finalLevel: 300,
      })
      .returning();
    const other = await api.createStudent({ programmeId: elsewhere!.id });
    expect(await mine(other)).toEqual({ semesters: [], withheld: [], verify_url: null });
    expect((await api.request("/student/results")).status).toBe(401);
  });
});

describe("the sessions the exams office's pages offer", () => {
  it("are the college's, newest first, with the current one named even when a newer one exists", async () => {
    await api.db
      .insert(academicSessions)
      .values([{ name: "2031/2032" }, { name: "2011/2012" }])
      .onConflictDoNothing();
    const rows = await api.db
      .select({ name: academicSessions.name, isCurrent: academicSessions.isCurrent })
      .from(academicSessions);
    const response = await api.request("/staff/results/sessions", { token: exams });
    expect(response.status).toBe(200);
    const { data } = await response.json();
    expect(data.sessions).toEqual(rows.map((row) => row.name).sort((a, b) => b.localeCompare(a)));
    expect(data.sessions[0]).toBe("2031/2032");
    expect(data.sessions.at(-1)).toBe("2011/2012");
    const current = rows.find((row) => row.isCurrent)?.name;
    expect(current).toBeDefined();
    expect(data.current).toBe(current);
    // The grading scheme's list reads the same sessions, oldest first.
    const schemes = await api.request("/staff/results/grading-schemes", { token: exams });
    expect((await schemes.json()).data.sessions).toEqual([...data.sessions].reverse());
  });
});
