import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, courseScores } from "../db/schema.ts";
import { createApiHarness, type ApiHarness } from "../testing/api-harness.test-kit.ts";
import { createStaff, staffSignIn } from "../staff/staff.test-kit.ts";
import { createResultsKit } from "./results.test-kit.ts";

let api: ApiHarness;
let kit: Awaited<ReturnType<typeof createResultsKit>>;
beforeAll(async () => {
  api = await createApiHarness();
  kit = await createResultsKit(api);
});
afterAll(() => api.close());

const scoresOf = (offeringId: number) =>
  api.db.select().from(courseScores).where(eq(courseScores.offeringId, offeringId));

function upload(token: string, offeringId: number, text: string, dryRun = false) {
  const form = new FormData();
  form.set("file", new File([text], "scores.csv", { type: "text/csv" }));
  form.set("dry_run", String(dryRun));
  return api.request(`/staff/results/offerings/${offeringId}/scores/import`, {
    method: "POST",
    token,
    body: form,
  });
}

/** A lecturer with an offering of `approved` students on the roster and `waiting` not on it. */
async function classOf(approved: number, waiting = 0) {
  const { member, token } = await kit.lecturer();
  const { course, students } = await kit.courseWithStudents({ approved, waiting });
  const id = await kit.offeringOf(course.id, [member.id]);
  return { token, id, course, students };
}

describe("a lecturer's score file", () => {
  it("is the roster with what is saved, special marks in the exam column", async () => {
    const { token, id, course, students } = await classOf(3, 1);
    const [a, b] = students;
    await kit.save(token, id, [
      { student_id: a!.id, ca: 30, exam: 40 },
      { student_id: b!.id, ca: 12, special: "ABS" },
    ]);
    const response = await api.request(`/staff/results/offerings/${id}/scores.csv`, { token });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-disposition")).toBe(
      `attachment; filename="${course.code.replace(" ", "-")}-2024-2025-semester-1-scores.csv"`,
    );
    const lines = (await response.text()).trim().split("\r\n");
    expect(lines).toEqual([
      '"matric_no","ca","exam"',
      `"${a!.matricNo}","30","40"`,
      `"${b!.matricNo}","12","ABS"`,
      `"${students[2]!.matricNo}","",""`,
    ]);
  });

  it("is not there for a lecturer who does not teach the course", async () => {
    const { id } = await classOf(1);
    const other = await kit.lecturer();
    const response = await api.request(`/staff/results/offerings/${id}/scores.csv`, {
      token: other.token,
    });
    expect(response.status).toBe(404);
  });
});

describe("uploading scores as CSV", () => {
  it("checks a file without saving, then saves every row, counting new, changed and unchanged, and audits", async () => {
    const { token, id, students } = await classOf(4);
    const [a, b, c, d] = students;
    await kit.save(token, id, [
      { student_id: a!.id, ca: 30, exam: 40 },
      { student_id: b!.id, ca: 20, exam: 20 },
    ]);
    // Lower-case matric and special mark, spaces around: as people type them.
    const file = [
      "matric_no,ca,exam",
      `${a!.matricNo},30,40`,
      `${b!.matricNo},25,20`,
      ` ${c!.matricNo!.toLowerCase()} ,10,abs`,
      `${d!.matricNo},35,`,
    ].join("\n");

    const check = await upload(token, id, file, true);
    expect(check.status).toBe(200);
    expect(await check.json()).toMatchObject({
      dry_run: true,
      written: false,
      created: 2,
      updated: 1,
      unchanged: 1,
      rejected: [],
    });
    expect(await scoresOf(id)).toHaveLength(2);

    const real = await upload(token, id, file);
    expect(real.status).toBe(200);
    expect(await real.json()).toMatchObject({
      written: true,
      created: 2,
      updated: 1,
      unchanged: 1,
      message: "Imported 4 rows: 2 created, 1 updated, 1 unchanged.",
    });
    const sheet = (await (await kit.sheet(token, id)).json()).data;
    expect(sheet.rows).toEqual([
      expect.objectContaining({ student_id: a!.id, total: 70, grade: "A" }),
      expect.objectContaining({ student_id: b!.id, ca: 25, exam: 20, total: 45, grade: "D" }),
      expect.objectContaining({ student_id: c!.id, ca: 10, special: "ABS", grade: "ABS" }),
      expect.objectContaining({ student_id: d!.id, ca: 35, exam: null, grade: null }),
    ]);
    const audits = await api.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "course_result.scores"), eq(auditLog.entityId, String(id))));
    expect(audits.at(-1)!.after).toEqual({
      [b!.matricNo!]: "25 / 20",
      [c!.matricNo!]: "10 / ABS",
      [d!.matricNo!]: "35 / –",
    });

    const again = await upload(token, id, file);
    expect(await again.json()).toMatchObject({ created: 0, updated: 0, unchanged: 4 });
  });

  it("refuses the whole file, row by row, when any row is wrong, and saves nothing", async () => {
    const { token, id, students } = await classOf(3, 1);
    const [a, b, c, waiting] = students;
    const elsewhere = await api.createStudent({ matricNo: "NCE/ELSEWHERE/001" });
    const file = [
      "matric_no,ca,exam",
      `${a!.matricNo},30,40`,
      `${b!.matricNo},41,10`,
      `${c!.matricNo},10,61`,
      `${waiting!.matricNo},10,10`,
      `${elsewhere.matricNo},10,10`,
      "NCE/NOBODY/999,10,10",
      `${a!.matricNo},31,40`,
      `${b!.matricNo!.toLowerCase()},12.5,X`,
      ",10,10",
    ].join("\n");
    const response = await upload(token, id, file);
    expect(response.status).toBe(422);
    const body = await response.json();
    expect(body).toMatchObject({
      status: "error",
      written: false,
      created: 0,
      message:
        "10 rows cannot be imported; nothing was written. Correct them and import the whole file again.",
    });
    expect(body.rejected).toEqual([
      { row: 3, field: "ca", value: "41", message: "CA must be a whole number from 0 to 40." },
      { row: 4, field: "exam", value: "61", message: "Exam must be a whole number from 0 to 60." },
      {
        row: 5,
        field: "matric_no",
        value: waiting!.matricNo,
        message: "This student is not registered (and approved) for this course.",
      },
      {
        row: 6,
        field: "matric_no",
        value: "NCE/ELSEWHERE/001",
        message: "This student is not registered (and approved) for this course.",
      },
      {
        row: 7,
        field: "matric_no",
        value: "NCE/NOBODY/999",
        message: "No student has this matric number.",
      },
      {
        row: 8,
        field: "matric_no",
        value: a!.matricNo,
        message: "This matric number is already on row 2.",
      },
      {
        row: 9,
        field: "matric_no",
        value: b!.matricNo!.toLowerCase(),
        message: "This matric number is already on row 3.",
      },
      { row: 9, field: "ca", value: "12.5", message: "CA must be a whole number." },
      {
        row: 9,
        field: "exam",
        value: "X",
        message: "Exam must be a whole number, or ABS, I or S.",
      },
      { row: 10, field: "matric_no", value: "", message: "Enter the student's matric number." },
    ]);
    expect(await scoresOf(id)).toEqual([]);
  });

  it("refuses a file whose first line is not matric_no,ca,exam, an empty upload, and no file", async () => {
    const { token, id, students } = await classOf(1);
    const header = await upload(token, id, `matric,ca,exam\n${students[0]!.matricNo},1,1`);
    expect(header.status).toBe(400);
    expect((await header.json()).message).toBe(
      'The first line must be exactly: matric_no,ca,exam (Misspelt: "matric" should be "matric_no".)',
    );
    const empty = await upload(token, id, "");
    expect(empty.status).toBe(400);
    const none = await api.request(`/staff/results/offerings/${id}/scores/import`, {
      method: "POST",
      token,
      body: new FormData(),
    });
    expect(none.status).toBe(400);
    expect((await none.json()).message).toBe("Choose a CSV file to import.");
    expect(await scoresOf(id)).toEqual([]);
  });

  it("is refused once the result is submitted, and for a lecturer who does not teach the course", async () => {
    const { token, id, students } = await classOf(1);
    const file = `matric_no,ca,exam\n${students[0]!.matricNo},30,40`;
    const other = await kit.lecturer();
    expect((await upload(other.token, id, file)).status).toBe(404);
    expect(await scoresOf(id)).toEqual([]);

    expect((await upload(token, id, file)).status).toBe(200);
    expect((await kit.submit(token, id)).status).toBe(200);
    const late = await upload(token, id, `matric_no,ca,exam\n${students[0]!.matricNo},40,60`);
    expect(late.status).toBe(409);
    expect((await late.json()).message).toBe(
      "This result has been submitted to the head of department: it can no longer be changed here.",
    );
    expect(await scoresOf(id)).toEqual([expect.objectContaining({ ca: 30, exam: 40 })]);
  });
});

describe("saving as the lecturer goes", () => {
  it("answers the saved rows as graded now", async () => {
    const { token, id, students } = await classOf(2);
    const response = await kit.save(token, id, [{ student_id: students[1]!.id, ca: 20, exam: 25 }]);
    expect((await response.json()).data).toEqual({
      rows: [
        expect.objectContaining({ student_id: students[1]!.id, total: 45, grade: "D", point: 2 }),
      ],
    });
  });
});

describe("the registry's list of course lecturers", () => {
  it("lists a semester's offerings with their lecturers, and whom the forms choose from", async () => {
    const one = await kit.lecturer();
    const two = await kit.lecturer();
    const gone = await createStaff(api, { roles: ["lecturer"], active: false });
    const head = await createStaff(api, { roles: ["hod"] });
    const { course } = await kit.courseWithStudents({ approved: 0 });
    const id = await kit.offeringOf(course.id, [one.member.id, two.member.id]);
    const headSet = await api.request("/staff/results/department-heads", {
      method: "POST",
      token: kit.registryToken,
      json: { department_id: kit.department.id, staff_id: head.id },
    });
    expect(headSet.status).toBe(200);

    const response = await api.request("/staff/results/offerings?session=2024/2025&semester=1", {
      token: kit.registryToken,
    });
    expect(response.status).toBe(200);
    const { data } = await response.json();
    expect(data.offerings).toContainEqual({
      id,
      course_id: course.id,
      course_code: course.code,
      course_title: course.title,
      session: "2024/2025",
      semester: 1,
      department_id: kit.department.id,
      department: kit.department.name,
      status: "open",
      lecturers: expect.arrayContaining([
        { id: one.member.id, name: one.member.name },
        { id: two.member.id, name: two.member.name },
      ]),
    });
    const lecturerIds = data.lecturers.map((person: { id: number }) => person.id);
    expect(lecturerIds).toEqual(expect.arrayContaining([one.member.id, two.member.id]));
    expect(lecturerIds).not.toContain(gone.id);
    expect(data.hod_candidates).toContainEqual({ id: head.id, name: head.name });
    expect(data.departments).toContainEqual({
      id: kit.department.id,
      name: kit.department.name,
      head: { id: head.id, name: head.name },
    });

    const second = await api.request("/staff/results/offerings?session=2024/2025&semester=2", {
      token: kit.registryToken,
    });
    expect((await second.json()).data.offerings).toEqual([]);
  });

  it("refuses a session or semester that is not one", async () => {
    for (const query of ["session=2024&semester=1", "session=2024/2025&semester=3", ""]) {
      const response = await api.request(`/staff/results/offerings?${query}`, {
        token: kit.registryToken,
      });
      expect(response.status, query).toBe(400);
    }
    const signedIn = await staffSignIn(api, await createStaff(api, { roles: ["registry"] }));
    expect(
      (
        await api.request("/staff/results/offerings?session=2024/2025&semester=1", {
          token: signedIn,
        })
      ).status,
    ).toBe(200);
  });
});
