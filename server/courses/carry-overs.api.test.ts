import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import {
  academicSessions,
  auditLog,
  courseMappings,
  courseOfferings,
  courseRegistrations,
  courseScores,
  courses,
  registrationApprovals,
  registrationReturns,
  resultPublications,
} from "../db/schema.ts";
import { createApiHarness, type ApiHarness } from "../testing/api-harness.test-kit.ts";
import { createStaff, staffSignIn } from "../staff/staff.test-kit.ts";
import {
  CarryOverList,
  PickerView,
  SlipResponse,
  StudentView,
} from "../../common/courses/registered-course.ts";
import { StudentRegistration } from "../../common/courses/advising.ts";
import { insertCatalogue } from "./seed.ts";
import { courseTestKit } from "./course.test-kit.ts";

// Carry-overs in registration (decision 180): a compulsory course failed in a published semester
// of an earlier session is required in the next registration of its semester, inside the cap.

let api: ApiHarness;
let kit: ReturnType<typeof courseTestKit>;
let lecturerId: number;
let phone = 8036660000;
const SESSION = "2024/2025";

beforeAll(async () => {
  api = await createApiHarness();
  await insertCatalogue(api.db);
  kit = courseTestKit(api);
  lecturerId = (await createStaff(api, { roles: ["lecturer"] })).id;
});
afterAll(() => api.close());

async function newStudent(level = 200) {
  phone += 1;
  const student = await api.createStudent({ phone: `0${phone}`, level });
  return { student, token: await api.signIn(`0${phone}`) };
}

const PASS = { ca: 30, exam: 35 }; // 65: B, 4 points
const FAIL = { ca: 10, exam: 20 };

/**
 * A result of the student's in a course's offering, approved by its head of department, and the
 * programme's semester published unless `published` is false.
 */
async function result(
  studentId: number,
  code: string,
  where: { session: string; semester: 1 | 2 },
  marks: { ca: number; exam: number },
  options: { published?: boolean; status?: string } = {},
) {
  const [course] = await api.db.select().from(courses).where(eq(courses.code, code));
  const key = and(
    eq(courseOfferings.courseId, course!.id),
    eq(courseOfferings.session, where.session),
    eq(courseOfferings.semester, where.semester),
  );
  await api.db
    .insert(courseOfferings)
    .values({
      courseId: course!.id,
      ...where,
      departmentId: api.school.departments[0]!.id,
      status: options.status ?? "approved",
    })
    .onConflictDoNothing();
  const [offering] = await api.db.select().from(courseOfferings).where(key);
  await api.db.insert(courseScores).values({
    offeringId: offering!.id,
    studentId,
    ...marks,
    enteredBy: lecturerId,
    updatedAt: new Date("2024-02-20T10:00:00Z"),
  });
  if (options.published === false) return;
  await api.db
    .insert(resultPublications)
    .values({
      programmeId: api.school.programmes[0]!.id,
      ...where,
      boardMeetingOn: "2024-03-14",
      minuteReference: "AB/TEST/1",
      publishedBy: lecturerId,
      publishedAt: new Date("2024-03-15T09:00:00Z"),
    })
    .onConflictDoNothing();
}

const FIRST_2023 = { session: "2023/2024", semester: 1 } as const;

async function carryOvers(token: string, session = SESSION) {
  const response = await api.request(`/courses/carry-overs?session=${session}`, { token });
  expect(response.status).toBe(200);
  return CarryOverList.parse(await response.json()).data.carry_overs;
}

const register = (token: string, courseIds: number[], level = 200) =>
  kit.register(token, { courses: courseIds, registration_level: level, session: SESSION });

async function codeIds(codes: string[]) {
  const rows = await api.db.select().from(courses);
  return codes.map((code) => rows.find((row) => row.code === code)!.id);
}

describe("carry-overs in course registration", () => {
  it("requires a published compulsory failure in the next registration of its semester, naming it", async () => {
    const { student, token } = await newStudent();
    await result(student.id, "BIO 111", FIRST_2023, PASS);
    await result(student.id, "BIO 113", FIRST_2023, FAIL);

    const listed = await carryOvers(token);
    expect(listed.map((course) => [course.code, course.semester, course.state])).toEqual([
      ["BIO 113", 1, "required"],
    ]);
    // Nothing of the kind for the session the course was failed in: its semester has gone by.
    expect(await carryOvers(token, "2023/2024")).toEqual([]);

    const level200 = await kit.idsOf(token, ["BIO 211", "BIO 212"], 200);
    const refused = await register(token, level200);
    expect(refused.status).toBe(409);
    const body = await refused.json();
    expect(body.error.message).toContain("BIO 113");
    expect(body.error.fields.courses).toBe("Carry-overs to add: BIO 113.");

    const [bio113] = await codeIds(["BIO 113"]);
    const registered = await register(token, [bio113!, ...level200]);
    expect(registered.status).toBe(201);
    expect((await registered.json()).data).toEqual({ registered: 3, units: 10 });

    // Registered with the level's courses, in its own semester, and marked on the slip.
    const view = StudentView.parse(
      await (await api.request(`/courses/student-view?session=${SESSION}`, { token })).json(),
    );
    expect(view.data.find((course) => course.code === "BIO 113")).toMatchObject({
      semester: 1,
      registration_level: 200,
    });
    expect((await carryOvers(token))[0]!.state).toBe("registered");
    const slip = SlipResponse.parse(
      await (
        await api.request(`/courses/validated/first/200?session=${SESSION}`, { token })
      ).json(),
    ).data.data[0]!;
    expect(slip.first_semester.map((course) => [course.code, course.carry_over])).toEqual([
      ["BIO 113", true],
      ["BIO 211", false],
      ["BIO 212", false],
    ]);

    // Once registered, the semester's later additions need not repeat it.
    expect((await register(token, await kit.idsOf(token, ["BIO 213"], 200))).status).toBe(201);
  });

  it("lets the other semester be registered first, and requires the carry-over at its own semester's turn", async () => {
    const { student, token } = await newStudent();
    await result(student.id, "CHM 113", FIRST_2023, FAIL);
    const second = await kit.idsOf(token, ["BIO 221", "CHM 221"], 200);
    expect((await register(token, second)).status).toBe(201);
    const first = await register(token, await kit.idsOf(token, ["CHM 211"], 200));
    expect(first.status).toBe(409);
    expect((await first.json()).error.message).toContain("CHM 113");
  });

  it("counts carry-overs inside the 80-unit cap: carry-overs first, other courses dropped", async () => {
    const { student, token } = await newStudent();
    await result(student.id, "BIO 113", FIRST_2023, FAIL);
    const offered = [...(await kit.offered(token, 200)).values()];
    const ids = (semester: 1 | 2) =>
      offered.filter((course) => course.semester === semester).map((course) => course.course_id);
    expect((await register(token, ids(2))).status).toBe(201); // 43 units of the second semester

    const [bio113] = await codeIds(["BIO 113"]);
    const over = await register(token, [bio113!, ...ids(1)]); // 3 + 43 more: 89
    expect(over.status).toBe(409);
    const body = await over.json();
    expect(body.error.message).toBe("Cannot exceed maximum of 80 units!");
    expect(body.error.fields.courses).toBe(
      "You have 43 units registered for 2024/2025; these courses add 46. Carry-overs come first: drop other courses (or reset a semester) to make room for them.",
    );
    // Dropping first-semester courses until it fits: the carry-over and 34 units make 80.
    const fitting = await register(token, [bio113!, ...ids(1).slice(0, 11)]);
    expect((await fitting.json()).data).toEqual({ registered: 12, units: 80 });
  });

  it("no longer requires a carry-over passed on a published retake, and still requires one failed again", async () => {
    const { student, token } = await newStudent(300);
    const earlier = { session: "2022/2023", semester: 1 } as const;
    await result(student.id, "BIO 113", earlier, FAIL);
    await result(student.id, "CHM 113", earlier, FAIL);
    await result(student.id, "BIO 113", FIRST_2023, PASS);
    await result(student.id, "CHM 113", FIRST_2023, FAIL);
    expect((await carryOvers(token)).map((course) => course.code)).toEqual(["CHM 113"]);
    const [chm113] = await codeIds(["CHM 113"]);
    const level300 = await kit.idsOf(token, ["BIO 311"], 300);
    expect((await register(token, level300, 300)).status).toBe(409);
    expect((await register(token, [chm113!, ...level300], 300)).status).toBe(201);
  });

  it("counts only published results: an approved result of an unpublished semester is no carry-over", async () => {
    const { student, token } = await newStudent();
    const secondOf2023 = { session: "2023/2024", semester: 2 } as const;
    // The programme's 2023/2024 second semester has no publication in this test's database.
    await result(student.id, "BIO 123", secondOf2023, FAIL, { published: false });
    expect(await carryOvers(token)).toEqual([]);
    const response = await register(token, await kit.idsOf(token, ["BIO 221"], 200));
    expect(response.status).toBe(201);
    // A course still with its lecturer counts for nothing either, even in a published semester.
    const { student: other, token: otherToken } = await newStudent();
    await result(other.id, "GSE 113", FIRST_2023, FAIL, { status: "open" });
    expect(await carryOvers(otherToken)).toEqual([]);
  });

  it("does not carry over an elective", async () => {
    const { student, token } = await newStudent();
    const [gse112] = await codeIds(["GSE 112"]);
    await api.db
      .update(courseMappings)
      .set({ compulsory: false })
      .where(eq(courseMappings.courseId, gse112!));
    await result(student.id, "GSE 112", FIRST_2023, FAIL);
    expect(await carryOvers(token)).toEqual([]);
  });

  it("admits a course below the student's level only as a carry-over", async () => {
    const { token } = await newStudent();
    const [bio114] = await codeIds(["BIO 114"]);
    const response = await register(token, [bio114!]);
    expect(response.status).toBe(400);
    expect((await response.json()).error.message).toBe(
      "BIO 114 is not offered to your programme at 200 level.",
    );
  });

  it("lets a carry-over whose semester the adviser approved before publication wait for the next session", async () => {
    const { student, token } = await newStudent();
    const first = await kit.idsOf(token, ["BIO 211"], 200);
    expect((await register(token, first)).status).toBe(201);
    await kit.approve(student.id, SESSION, 1);
    await result(student.id, "BIO 113", FIRST_2023, FAIL);
    const [listed] = await carryOvers(token);
    expect(listed).toMatchObject({ code: "BIO 113", state: "waiting" });
    expect(listed!.waiting_reason).toContain("register it next session");
    // The second semester goes ahead without it.
    expect((await register(token, await kit.idsOf(token, ["BIO 221"], 200))).status).toBe(201);
  });
});

describe("GET /courses/carry-overs", () => {
  it("answers a signed-in student only, for a session written as one", async () => {
    expect((await api.request(`/courses/carry-overs?session=${SESSION}`)).status).toBe(401);
    const { token } = await newStudent();
    const malformed = await api.request("/courses/carry-overs?session=last", { token });
    expect(malformed.status).toBe(400);
    expect((await malformed.json()).error.fields.session).toBe(
      "Choose a session such as 2024/2025.",
    );
    // Without a session, the current one.
    const current = CarryOverList.parse(
      await (await api.request("/courses/carry-overs", { token })).json(),
    );
    expect(current.data).toEqual({ session: SESSION, carry_overs: [] });
  });
});

describe("GET /courses/picker-view (decision 204)", () => {
  const answerOf = async (path: string, token: string) => {
    const response = await api.request(path, { token });
    expect(response.status).toBe(200);
    return response.json();
  };

  it("answers student-view's and carry-overs' answers for the session together", async () => {
    const { student, token } = await newStudent();
    await result(student.id, "BIO 113", FIRST_2023, FAIL);
    expect((await register(token, await kit.idsOf(token, ["BIO 221"], 200))).status).toBe(201);

    for (const session of [SESSION, "2023/2024"]) {
      const query = `?session=${encodeURIComponent(session)}`;
      const picker = PickerView.parse(await answerOf(`/courses/picker-view${query}`, token));
      const view = StudentView.parse(await answerOf(`/courses/student-view${query}`, token));
      const carried = CarryOverList.parse(await answerOf(`/courses/carry-overs${query}`, token));
      expect(picker.data).toEqual({
        session,
        view,
        carry_overs: carried.data.carry_overs,
      });
    }
    const picker = PickerView.parse(
      await answerOf(`/courses/picker-view?session=${SESSION}`, token),
    );
    expect(picker.data.view.data.map((course) => course.code)).toEqual(["BIO 221"]);
    expect(picker.data.carry_overs.map((course) => [course.code, course.state])).toEqual([
      ["BIO 113", "required"],
    ]);
    // Without a session, the current one.
    expect(PickerView.parse(await answerOf("/courses/picker-view", token)).data).toEqual(
      picker.data,
    );
  });

  it("answers a signed-in student only, for a session written as one, changing nothing", async () => {
    const { student, token } = await newStudent();
    await result(student.id, "BIO 113", FIRST_2023, FAIL);
    const before = await api.db.select().from(courseRegistrations);
    const audited = await api.db.select().from(auditLog);

    expect((await api.request(`/courses/picker-view?session=${SESSION}`)).status).toBe(401);
    const malformed = await api.request("/courses/picker-view?session=last", { token });
    expect(malformed.status).toBe(400);
    expect((await malformed.json()).error.fields.session).toBe(
      "Choose a session such as 2024/2025.",
    );
    // A session that is no session's name has nothing registered in it.
    const unknown = PickerView.parse(
      await answerOf("/courses/picker-view?session=1999/2000", token),
    );
    expect(unknown.data).toEqual({
      session: "1999/2000",
      view: { data: [], approvals: [], returns: [] },
      carry_overs: [],
    });

    expect(await api.db.select().from(courseRegistrations)).toEqual(before);
    expect(await api.db.select().from(auditLog)).toEqual(audited);
  });
});

describe("carry-overs under concurrent requests", () => {
  it("never lets a semester hold other courses without its carry-over, nor register it twice", async () => {
    const { student, token } = await newStudent();
    await result(student.id, "BIO 113", FIRST_2023, FAIL);
    const [bio113] = await codeIds(["BIO 113"]);
    const first = [...(await kit.offered(token, 200)).values()]
      .filter((course) => course.semester === 1)
      .map((course) => course.course_id);
    // Every other request brings the carry-over; those without it are refused until it is in.
    const responses = await Promise.all(
      first.map((courseId, i) => register(token, i % 2 ? [courseId] : [bio113!, courseId])),
    );
    const statuses = responses.map((response) => response.status);
    expect(statuses.every((status) => status === 201 || status === 409)).toBe(true);
    expect(statuses).toContain(201);
    const view = StudentView.parse(
      await (await api.request(`/courses/student-view?session=${SESSION}`, { token })).json(),
    );
    const codes = view.data.map((course) => course.code);
    expect(codes.filter((code) => code === "BIO 113")).toHaveLength(1);
    expect(codes.length).toBe(statuses.filter((status) => status === 201).length + 1);
  });
});

async function adviserToken() {
  const member = await createStaff(api, {
    roles: ["adviser"],
    advises: [200, 300].map((level) => ({
      department_id: api.school.departments[0]!.id,
      level,
    })),
  });
  return staffSignIn(api, member);
}

const review = async (token: string, studentId: number) => {
  const response = await api.request(`/staff/registrations/${studentId}?session=${SESSION}`, {
    token,
  });
  expect(response.status).toBe(200);
  return StudentRegistration.parse(await response.json()).data;
};

describe("the adviser's view of carry-overs and standing", () => {
  it("marks the registered carry-overs and shows the standing of the latest published semester", async () => {
    const { student, token } = await newStudent();
    await result(student.id, "BIO 111", FIRST_2023, PASS);
    await result(student.id, "BIO 113", FIRST_2023, FAIL);
    const [bio113] = await codeIds(["BIO 113"]);
    const level200 = await kit.idsOf(token, ["BIO 211"], 200);
    expect((await register(token, [bio113!, ...level200])).status).toBe(201);

    const seen = await review(await adviserToken(), student.id);
    expect(seen.semesters[0]!.courses.map((course) => [course.code, course.carry_over])).toEqual([
      ["BIO 113", true],
      ["BIO 211", false],
    ]);
    expect(seen.carry_overs.map((course) => [course.code, course.state])).toEqual([
      ["BIO 113", "registered"],
    ]);
    // BIO 111 (4 units) at B, BIO 113 (3 units) at F: 16 / 7 = 2.29.
    expect(seen.standing).toEqual({
      session: "2023/2024",
      semester: 1,
      standing: "good",
      gpa: 2.29,
      cgpa: 2.29,
    });
  });

  it("shows probation, then withdrawal, and a carry-over not registered yet", async () => {
    const { student } = await newStudent(300);
    const adviser = await adviserToken();
    await result(student.id, "BIO 113", { session: "2022/2023", semester: 1 }, FAIL);
    expect((await review(adviser, student.id)).standing?.standing).toBe("probation");
    await result(student.id, "BIO 113", FIRST_2023, FAIL);
    const seen = await review(adviser, student.id);
    expect(seen.standing).toMatchObject({ session: "2023/2024", standing: "withdrawal", cgpa: 0 });
    expect(seen.carry_overs.map((course) => [course.code, course.state])).toEqual([
      ["BIO 113", "required"],
    ]);
  });

  it("shows no standing before anything of the student's is published", async () => {
    const { student } = await newStudent();
    await result(student.id, "BIO 123", { session: "2023/2024", semester: 2 }, FAIL, {
      published: false,
    });
    const seen = await review(await adviserToken(), student.id);
    expect(seen.standing).toBeNull();
    expect(seen.carry_overs).toEqual([]);
  });
});

describe("an adviser approving a semester without its carry-over (decision 185)", () => {
  /** Approves what the adviser was shown of the semester. */
  const approve = (token: string, studentId: number, semester: 1 | 2, shown: { id: number }[]) =>
    api.request(`/staff/registrations/${studentId}/approve`, {
      method: "POST",
      token,
      json: { session: SESSION, semester, registration_ids: shown.map((course) => course.id) },
    });
  const sendBack = (token: string, studentId: number, semester: 1 | 2) =>
    api.request(`/staff/registrations/${studentId}/return`, {
      method: "POST",
      token,
      json: { session: SESSION, semester, note: "Add your carry-over BIO 113, please." },
    });
  /** What an approval would change: the semester's courses, approval, return and audit. */
  const stateOf = async (studentId: number) => ({
    courses: await api.db
      .select()
      .from(courseRegistrations)
      .where(eq(courseRegistrations.studentId, studentId)),
    approvals: await api.db
      .select()
      .from(registrationApprovals)
      .where(eq(registrationApprovals.studentId, studentId)),
    returns: await api.db
      .select()
      .from(registrationReturns)
      .where(eq(registrationReturns.studentId, studentId)),
    audit: await api.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.entityId, `${studentId}:${SESSION}:1`)),
  });
  const REFUSAL =
    "The First Semester registration for 2024/2025 lacks the carry-over course BIO 113, which the student must take again this semester; it cannot be approved without it. Return it to the student with a note so they add it.";

  it("refuses while the student can add it, naming it and changing nothing; returned, the student adds it and it is approved", async () => {
    const { student, token } = await newStudent();
    expect((await register(token, await kit.idsOf(token, ["BIO 211"], 200))).status).toBe(201);
    // Her 2023/2024 result is published after she registered.
    await result(student.id, "BIO 113", FIRST_2023, FAIL);

    const adviser = await adviserToken();
    const seen = await review(adviser, student.id);
    expect(seen.semesters.map((semester) => semester.missing_carry_overs)).toEqual([
      { codes: ["BIO 113"], approvable: false, message: REFUSAL },
      null,
    ]);
    const before = await stateOf(student.id);
    const refused = await approve(adviser, student.id, 1, seen.semesters[0]!.courses);
    expect(refused.status).toBe(409);
    expect((await refused.json()).error.message).toBe(REFUSAL);
    expect(await stateOf(student.id)).toEqual(before);
    expect((await review(adviser, student.id)).semesters[0]!.status).toBe("pending");

    expect((await sendBack(adviser, student.id, 1)).status).toBe(200);
    // Returned, she finds it required (pre-selected) as before, and adds it.
    expect((await carryOvers(token)).map((course) => [course.code, course.state])).toEqual([
      ["BIO 113", "required"],
    ]);
    const [bio113] = await codeIds(["BIO 113"]);
    expect((await register(token, await kit.idsOf(token, ["BIO 212"], 200))).status).toBe(409);
    expect((await register(token, [bio113!])).status).toBe(201);

    const again = await review(adviser, student.id);
    expect(again.semesters[0]!.missing_carry_overs).toBeNull();
    expect((await approve(adviser, student.id, 1, again.semesters[0]!.courses)).status).toBe(200);
    const [approval] = (await stateOf(student.id)).audit.filter(
      (entry) => entry.action === "registration.approve",
    );
    expect(approval!.after).toEqual({
      status: "approved",
      courses: ["BIO 113", "BIO 211"],
      units: 7,
    });
  });

  it("approves a semester holding its carry-over, and the other semester while the first lacks its own", async () => {
    const { student, token } = await newStudent();
    const second = await kit.idsOf(token, ["BIO 221"], 200);
    expect((await register(token, second)).status).toBe(201);
    expect((await register(token, await kit.idsOf(token, ["BIO 211"], 200))).status).toBe(201);
    await result(student.id, "BIO 113", FIRST_2023, FAIL);
    const adviser = await adviserToken();
    const seen = await review(adviser, student.id);
    // The second semester is not where BIO 113 is taken: it goes ahead.
    expect(seen.semesters[1]!.missing_carry_overs).toBeNull();
    expect((await approve(adviser, student.id, 2, seen.semesters[1]!.courses)).status).toBe(200);
    expect((await approve(adviser, student.id, 1, seen.semesters[0]!.courses)).status).toBe(409);

    const { student: other, token: otherToken } = await newStudent();
    await result(other.id, "BIO 113", FIRST_2023, FAIL);
    const [bio113] = await codeIds(["BIO 113"]);
    const level200 = await kit.idsOf(otherToken, ["BIO 211"], 200);
    expect((await register(otherToken, [bio113!, ...level200])).status).toBe(201);
    const holding = await review(adviser, other.id);
    expect(holding.semesters[0]!.missing_carry_overs).toBeNull();
    expect((await approve(adviser, other.id, 1, holding.semesters[0]!.courses)).status).toBe(200);
  });

  it("once registration has closed, lets the adviser approve without it, and it waits for the next session", async () => {
    const { student, token } = await newStudent();
    expect((await register(token, await kit.idsOf(token, ["BIO 211"], 200))).status).toBe(201);
    await result(student.id, "BIO 113", FIRST_2023, FAIL);
    const adviser = await adviserToken();
    const closing = (courseModifiable: boolean) =>
      api.db
        .update(academicSessions)
        .set({ courseModifiable })
        .where(eq(academicSessions.name, SESSION));
    await closing(false);
    try {
      const seen = await review(adviser, student.id);
      expect(seen.semesters[0]!.missing_carry_overs).toEqual({
        codes: ["BIO 113"],
        approvable: true,
        message:
          "The First Semester registration for 2024/2025 lacks the carry-over course BIO 113. Registration for 2024/2025 is not open, so the student cannot add it now: if you approve the semester, it waits for the student's next session.",
      });
      expect((await approve(adviser, student.id, 1, seen.semesters[0]!.courses)).status).toBe(200);
      const [approval] = (await stateOf(student.id)).audit;
      expect(approval!.after).toMatchObject({
        courses: ["BIO 211"],
        carry_overs_waiting: ["BIO 113"],
      });
      const [listed] = await carryOvers(token);
      expect(listed).toMatchObject({ code: "BIO 113", state: "waiting" });
      expect(listed!.waiting_reason).toBe(
        "Your first semester was approved without it; register it next session.",
      );
    } finally {
      await closing(true);
    }
  });
});
