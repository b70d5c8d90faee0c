import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { academicSessions, auditLog, registrationApprovals } from "../../db/schema.ts";
import { createApiHarness, type ApiHarness } from "../../testing/api-harness.test-kit.ts";
import { insertCatalogue } from "../seed.ts";
import { advisingTestKit, SESSION } from "./advising.test-kit.ts";

let api: ApiHarness;
let kit: ReturnType<typeof advisingTestKit>;
let adviser: Awaited<ReturnType<ReturnType<typeof advisingTestKit>["adviser"]>>;

beforeAll(async () => {
  api = await createApiHarness();
  await insertCatalogue(api.db);
  kit = advisingTestKit(api);
  adviser = await kit.adviser([100]);
});
afterAll(() => api.close());

const auditFor = (studentId: number, semester = 1) =>
  api.db
    .select()
    .from(auditLog)
    .where(eq(auditLog.entityId, `${studentId}:${SESSION}:${semester}`));

describe("an adviser approves a semester", () => {
  it("records the adviser and time, shows their name to the student, and audits the change", async () => {
    const { student, token } = await kit.student();
    const response = await kit.approve(adviser.token, student.id, 1);
    expect(response.status).toBe(200);
    expect((await response.json()).message).toBe(
      `First Semester registration for ${SESSION} approved: ${student.surname} ${student.othername} can no longer change it.`,
    );

    const [row] = await api.db
      .select()
      .from(registrationApprovals)
      .where(eq(registrationApprovals.studentId, student.id));
    expect(row).toMatchObject({
      staffId: adviser.member.id,
      approvedBy: null,
      semester: 1,
      approvedAt: api.clock.now(),
    });
    const view = await kit.studentView(token);
    expect(view.approvals).toEqual([
      { semester: 1, approved_by: adviser.member.name, approved_at: api.clock.now().toISOString() },
    ]);

    const [entry] = await auditFor(student.id);
    expect(entry).toMatchObject({
      staffId: adviser.member.id,
      action: "registration.approve",
      entity: "course_registration",
      before: { status: "pending", note: null },
      after: { status: "approved", courses: ["BIO 111", "GSE 111"], units: 6 },
    });
    const { body } = await kit.review(adviser.token, student.id);
    expect(body.data.semesters.map((semester: { status: string }) => semester.status)).toEqual([
      "approved",
      "pending",
    ]);
  });

  it("freezes the semester on the server: the student can neither reset it nor add to it", async () => {
    const { student, token } = await kit.student();
    await kit.approve(adviser.token, student.id, 1);
    const reset = await kit.courses.reset(token, {
      registration_session: SESSION,
      semester: "first",
      student_id: student.id,
    });
    expect(reset.status).toBe(403);
    expect((await reset.json()).error.message).toBe(
      "You cannot delete courses after the Course Advisor have approved your course registration.",
    );
    const more = await kit.courses.register(token, {
      courses: await kit.courses.idsOf(token, ["BIO 112"]),
      registration_level: 100,
      session: SESSION,
    });
    expect(more.status).toBe(403);
    // The second semester, not approved, still changes.
    const second = await kit.courses.register(token, {
      courses: await kit.courses.idsOf(token, ["BIO 122"]),
      registration_level: 100,
      session: SESSION,
    });
    expect(second.status).toBe(201);
  });

  it("refuses an empty semester and a second approval, writing no audit row", async () => {
    const { student } = await kit.student(["BIO 111"]);
    const empty = await kit.approve(adviser.token, student.id, 2);
    expect(empty.status).toBe(409);
    expect((await empty.json()).error.message).toBe(
      "The student has no Second Semester courses registered for 2024/2025; there is nothing to approve.",
    );
    expect((await kit.approve(adviser.token, student.id, 1)).status).toBe(200);
    const again = await kit.approve(adviser.token, student.id, 1);
    expect(again.status).toBe(409);
    expect(await auditFor(student.id, 2)).toEqual([]);
    expect(await auditFor(student.id, 1)).toHaveLength(1);
  });

  it("refuses (409) to approve courses the adviser was not shown: the student reset and registered others meanwhile", async () => {
    const { student, token } = await kit.student(["BIO 111", "GSE 111"]);
    const shown = (await kit.review(adviser.token, student.id)).body.data.semesters[0].courses;
    expect(shown.map((course: { code: string }) => course.code)).toEqual(["BIO 111", "GSE 111"]);
    expect(
      (
        await kit.courses.reset(token, {
          registration_session: SESSION,
          semester: "first",
          student_id: student.id,
        })
      ).status,
    ).toBe(200);
    const registered = await kit.courses.register(token, {
      courses: await kit.courses.idsOf(token, ["CHM 111", "EDU 111"]),
      registration_level: 100,
      session: SESSION,
    });
    expect(registered.status).toBe(201);

    const refused = await kit.approve(
      adviser.token,
      student.id,
      1,
      SESSION,
      shown.map((course: { id: number }) => course.id),
    );
    expect(refused.status).toBe(409);
    expect((await refused.json()).error.message).toBe(
      "This student changed the semester after you opened it; review it again.",
    );
    expect(
      await api.db
        .select()
        .from(registrationApprovals)
        .where(eq(registrationApprovals.studentId, student.id)),
    ).toEqual([]);
    expect(await auditFor(student.id)).toEqual([]);

    // Reviewed again, the courses now shown are the ones approved and audited.
    const reviewed = (await kit.review(adviser.token, student.id)).body.data.semesters[0].courses;
    expect(
      (
        await kit.approve(
          adviser.token,
          student.id,
          1,
          SESSION,
          reviewed.map((course: { id: number }) => course.id),
        )
      ).status,
    ).toBe(200);
    const [entry] = await auditFor(student.id);
    expect(entry!.after).toMatchObject({ status: "approved", courses: ["CHM 111", "EDU 111"] });
  });

  it("refuses (409) a course added after the page was opened, or ids of another student's courses", async () => {
    const { student, token } = await kit.student(["BIO 111"]);
    const other = await kit.student(["BIO 111"]);
    const [shown] = (await kit.review(adviser.token, student.id)).body.data.semesters[0].courses;
    const [theirs] = (await kit.review(adviser.token, other.student.id)).body.data.semesters[0]
      .courses;
    expect(
      (
        await kit.courses.register(token, {
          courses: await kit.courses.idsOf(token, ["GSE 111"]),
          registration_level: 100,
          session: SESSION,
        })
      ).status,
    ).toBe(201);
    for (const ids of [[shown.id], [theirs.id], [], [shown.id, theirs.id]]) {
      const refused = await kit.approve(adviser.token, student.id, 1, SESSION, ids);
      expect(refused.status, JSON.stringify(ids)).toBe(409);
    }
    expect(await auditFor(student.id)).toEqual([]);
  });

  it("still shows the recorded name of approvals made before staff accounts", async () => {
    const { student, token } = await kit.student();
    await kit.courses.approve(student.id, SESSION, 2);
    expect((await kit.studentView(token)).approvals).toEqual([
      expect.objectContaining({ semester: 2, approved_by: "Dr. Funmilayo Adeyemi" }),
    ]);
    const { body } = await kit.review(adviser.token, student.id);
    expect(body.data.semesters[1]).toMatchObject({
      status: "approved",
      approved_by: "Dr. Funmilayo Adeyemi",
    });
  });
});

describe("an adviser returns a semester with a note", () => {
  it("shows the note to the student; a change by the student makes it pending again", async () => {
    const { student, token } = await kit.student();
    const note = "Add BIO 112: it is compulsory for your programme.";
    const response = await kit.sendBack(adviser.token, student.id, note, 1);
    expect(response.status).toBe(200);
    expect((await kit.studentView(token)).returns).toEqual([
      {
        semester: 1,
        returned_by: adviser.member.name,
        returned_at: api.clock.now().toISOString(),
        note,
      },
    ]);
    expect((await kit.review(adviser.token, student.id)).body.data.semesters[0]).toMatchObject({
      status: "returned",
      note,
    });
    const [entry] = await auditFor(student.id);
    expect(entry).toMatchObject({
      action: "registration.return",
      before: { status: "pending", note: null },
      after: { status: "returned", note },
    });

    const more = await kit.courses.register(token, {
      courses: await kit.courses.idsOf(token, ["BIO 112"]),
      registration_level: 100,
      session: SESSION,
    });
    expect(more.status).toBe(201);
    expect((await kit.studentView(token)).returns).toEqual([]);
    expect((await kit.review(adviser.token, student.id)).body.data.semesters[0]).toMatchObject({
      status: "pending",
      note: null,
      total_units: 9,
    });
    expect((await kit.approve(adviser.token, student.id, 1)).status).toBe(200);
  });

  it("a reset and a new registration re-submit a returned semester; a reset alone leaves it not submitted", async () => {
    const { student, token } = await kit.student();
    await kit.sendBack(
      adviser.token,
      student.id,
      "Register the first semester again with BIO 112.",
      1,
    );
    const reset = await kit.courses.reset(token, {
      registration_session: SESSION,
      semester: "first",
      student_id: student.id,
    });
    expect(reset.status).toBe(200);
    expect((await kit.review(adviser.token, student.id)).body.data.semesters[0].status).toBe(
      "not_submitted",
    );
    await kit.courses.register(token, {
      courses: await kit.courses.idsOf(token, ["BIO 111", "BIO 112"]),
      registration_level: 100,
      session: SESSION,
    });
    expect((await kit.review(adviser.token, student.id)).body.data.semesters[0].status).toBe(
      "pending",
    );
  });

  it("approving a returned semester clears the return; an approved semester cannot be returned", async () => {
    const { student, token } = await kit.student();
    await kit.sendBack(adviser.token, student.id, "Please check your electives.", 1);
    await kit.sendBack(adviser.token, student.id, "On second thoughts: add GSE 112.", 1);
    expect((await kit.studentView(token)).returns[0].note).toBe("On second thoughts: add GSE 112.");
    expect((await kit.approve(adviser.token, student.id, 1)).status).toBe(200);
    expect((await kit.studentView(token)).returns).toEqual([]);
    const refused = await kit.sendBack(adviser.token, student.id, "Too late for this.", 1);
    expect(refused.status).toBe(409);
    expect((await refused.json()).error.message).toBe(
      "The First Semester registration for 2024/2025 is already approved; an approved registration cannot change.",
    );
  });

  it("refuses to return a semester of a closed session: the student could not change it", async () => {
    const { student } = await kit.student();
    await api.db
      .update(academicSessions)
      .set({ courseModifiable: false })
      .where(eq(academicSessions.name, SESSION));
    try {
      const refused = await kit.sendBack(adviser.token, student.id, "Please add BIO 112.", 1);
      expect(refused.status).toBe(409);
      expect((await refused.json()).error.message).toContain(
        "Course registration for 2024/2025 is closed",
      );
      expect((await kit.approve(adviser.token, student.id, 1)).status).toBe(200);
    } finally {
      await api.db
        .update(academicSessions)
        .set({ courseModifiable: true })
        .where(eq(academicSessions.name, SESSION));
    }
  });

  // The harness's clock reads 15 January 2025 at the college.
  it.each([
    [
      "closed the day before",
      { registrationClosesOn: "2025-01-14" },
      "closed on 14 January 2025, so the student could not change the semester. Approve it, or ask the registry to extend the closing date.",
    ],
    [
      "opens the day after",
      { registrationOpensOn: "2025-01-16" },
      "opens on 16 January 2025, so the student could not change the semester before then. Return it from that day, or approve it.",
    ],
  ])(
    "refuses to return a semester when registration %s, as the student's reset is refused",
    async (_case, dates, reason) => {
      const { student, token } = await kit.student();
      await api.db.update(academicSessions).set(dates).where(eq(academicSessions.name, SESSION));
      try {
        const refused = await kit.sendBack(adviser.token, student.id, "Please add BIO 112.", 1);
        expect(refused.status).toBe(409);
        expect((await refused.json()).error.message).toBe(
          `Course registration for 2024/2025 ${reason}`,
        );
        expect(
          (
            await kit.courses.reset(token, {
              registration_session: SESSION,
              semester: "first",
              student_id: student.id,
            })
          ).status,
        ).toBe(403);
        expect((await kit.studentView(token)).returns).toEqual([]);
        expect(await auditFor(student.id)).toEqual([]);
      } finally {
        await api.db
          .update(academicSessions)
          .set({ registrationOpensOn: null, registrationClosesOn: null })
          .where(eq(academicSessions.name, SESSION));
      }
    },
  );

  it("returns a semester on the first and the last day of the window, when the student can change it", async () => {
    const { student } = await kit.student();
    await api.db
      .update(academicSessions)
      .set({ registrationOpensOn: "2025-01-15", registrationClosesOn: "2025-01-15" })
      .where(eq(academicSessions.name, SESSION));
    try {
      expect((await kit.sendBack(adviser.token, student.id, "Please add BIO 112.", 1)).status).toBe(
        200,
      );
    } finally {
      await api.db
        .update(academicSessions)
        .set({ registrationOpensOn: null, registrationClosesOn: null })
        .where(eq(academicSessions.name, SESSION));
    }
  });
});

describe("bad input is refused with a clear message", () => {
  it.each([
    [
      "semester 3",
      { session: SESSION, semester: 3, registration_ids: [] },
      "Choose semester 1 or 2.",
    ],
    ["no session", { semester: 1, registration_ids: [] }, "Select a session"],
    [
      "a malformed session",
      { session: "2024-2025", semester: 1, registration_ids: [] },
      "Choose a session such as 2024/2025.",
    ],
    [
      "an unknown session",
      { session: "2030/2031", semester: 1, registration_ids: [] },
      "There is no 2030/2031 session. Choose a session from the list.",
    ],
    [
      "no registration ids",
      { session: SESSION, semester: 1 },
      "Say which course registrations you reviewed (registration_ids); open the student's registration and approve from there.",
    ],
    [
      "a registration id that is not a number",
      { session: SESSION, semester: 1, registration_ids: ["BIO 111"] },
      "A registration id must be a number.",
    ],
    [
      "registration ids that are not a list",
      { session: SESSION, semester: 1, registration_ids: 12 },
      "Say which course registrations you reviewed (registration_ids); open the student's registration and approve from there.",
    ],
  ])("approve with %s", async (_case, json, message) => {
    const { student } = await kit.student(["BIO 111"]);
    const response = await api.request(`/staff/registrations/${student.id}/approve`, {
      method: "POST",
      token: adviser.token,
      json,
    });
    expect(response.status).toBe(400);
    expect((await response.json()).error.message).toBe(message);
  });

  it.each([
    ["no note", undefined, "Write a note telling the student what to change."],
    [
      "a blank note",
      "   ",
      "Write a note telling the student what to change (at least 5 characters).",
    ],
    ["a very long note", "x".repeat(1001), "Keep the note under 1000 characters."],
  ])("return with %s", async (_case, note, message) => {
    const { student } = await kit.student(["BIO 111"]);
    const response = await kit.sendBack(adviser.token, student.id, note);
    expect(response.status).toBe(400);
    expect((await response.json()).error.message).toBe(message);
  });

  it("refuses a student id that is not a number, a non-JSON body and bad list filters", async () => {
    expect((await api.request("/staff/registrations/abc", { token: adviser.token })).status).toBe(
      400,
    );
    const notJson = await api.request("/staff/registrations/1/approve", {
      method: "POST",
      token: adviser.token,
      body: "semester=1",
      headers: { "content-type": "text/plain" },
    });
    expect(notJson.status).toBe(415);
    const badFilters: Record<string, string>[] = [
      { status: "done" },
      { level: "700" },
      { page: "0" },
      { department_id: "x" },
    ];
    for (const query of badFilters) {
      const { status, body } = await kit.list(adviser.token, query);
      expect(status, JSON.stringify(query)).toBe(400);
      expect(body.error.message).toMatch(/^(Choose|Levels|Pages)/);
    }
  });
});
