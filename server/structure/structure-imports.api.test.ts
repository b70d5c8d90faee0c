import { and, count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  auditLog,
  courseMappings,
  courses,
  departments,
  faculties,
  programmes,
} from "../db/schema.ts";
import { createApiHarness, type ApiHarness } from "../testing/api-harness.test-kit.ts";
import { createStaff, staffSignIn } from "../staff/staff.test-kit.ts";

let api: ApiHarness;
let registryId: number;
let token: string;

beforeAll(async () => {
  api = await createApiHarness();
  const registry = await createStaff(api, { roles: ["registry"] });
  registryId = registry.id;
  token = await staffSignIn(api, registry);
});
afterAll(() => api.close());

/** Uploads a file as the staff pages do: multipart with `file` and `dry_run`. */
async function upload(what: string, file: string | Uint8Array<ArrayBuffer>, dryRun = false) {
  const form = new FormData();
  form.set("file", new File([file], `${what}.csv`, { type: "text/csv" }));
  form.set("dry_run", String(dryRun));
  const response = await api.request(`/staff/${what}/import`, {
    method: "POST",
    token,
    body: form,
  });
  const body = await response.json();
  return { status: response.status, report: body, message: body.message as string | undefined };
}

const rowsIn = async (
  table:
    | typeof courses
    | typeof courseMappings
    | typeof faculties
    | typeof departments
    | typeof programmes,
) => (await api.db.select({ n: count() }).from(table))[0]!.n;

describe("importing the academic structure", () => {
  it("a dry run writes nothing; the real run creates; the same file again changes nothing", async () => {
    const file = "name\nSchool of Vocational Education\nSchool of Languages\n";
    const dry = await upload("faculties", file, true);
    expect(dry).toMatchObject({
      status: 200,
      report: { dry_run: true, written: false, created: 2, updated: 0, unchanged: 0, rejected: [] },
    });
    expect(await rowsIn(faculties)).toBe(1);

    expect((await upload("faculties", file)).report).toMatchObject({ written: true, created: 2 });
    expect(
      (await upload("faculties", file.toUpperCase().replace("NAME", "name"))).report,
    ).toMatchObject({ created: 0, updated: 2, unchanged: 0 });
    expect((await upload("faculties", file)).report).toMatchObject({ created: 0, updated: 2 });
    expect((await upload("faculties", file)).report).toMatchObject({
      created: 0,
      updated: 0,
      unchanged: 2,
      written: true,
    });
    const audit = await api.db.select().from(auditLog).where(eq(auditLog.action, "faculty.create"));
    expect(audit.map((row) => row.after)).toEqual([
      { name: "School of Vocational Education" },
      { name: "School of Languages" },
    ]);
  });

  it("places departments and programmes under faculties, NCE programmes ending at 300 level", async () => {
    const departmentsFile =
      "name,faculty\nAgricultural Education,school of vocational education\nYoruba,School of Languages\n";
    expect((await upload("departments", departmentsFile)).report).toMatchObject({
      created: 2,
      written: true,
    });
    const programmesFile =
      "name,faculty\nNCE Agricultural Education,School of Vocational Education\nB.A.(Ed.) Yoruba,School of Languages\n";
    expect((await upload("programmes", programmesFile)).report).toMatchObject({
      created: 2,
      written: true,
    });
    const rows = await api.db
      .select({ name: programmes.name, finalLevel: programmes.finalLevel })
      .from(programmes);
    expect(rows).toContainEqual({ name: "NCE Agricultural Education", finalLevel: 300 });
    expect(rows).toContainEqual({ name: "B.A.(Ed.) Yoruba", finalLevel: 400 });
    // Moving a department to another faculty is an update, matched by its name.
    const moved = await upload(
      "departments",
      "name,faculty\nYoruba,School of Vocational Education\n",
    );
    expect(moved.report).toMatchObject({ created: 0, updated: 1 });
  });

  it("imports courses and mappings, matching codes however they are spaced, then re-imports as unchanged", async () => {
    const coursesFile =
      "code,title,unit,semester\nAGE 111,Introduction to Agriculture,2,first\nage112,Farm Tools,3,1\nAGE 121,Crop Production,2,second\n";
    expect((await upload("courses", coursesFile)).report).toMatchObject({
      created: 3,
      written: true,
    });
    const [tools] = await api.db.select().from(courses).where(eq(courses.code, "AGE 112"));
    expect(tools).toMatchObject({ title: "Farm Tools", unit: 3, semester: 1 });

    const mappingsFile =
      "course_code,programme,level,semester\nAGE 111,NCE Agricultural Education,100,1\nAGE 112,NCE Agricultural Education,100,first\nAGE 121,nce agricultural education,100,2\n";
    expect((await upload("course-mappings", mappingsFile, true)).report).toMatchObject({
      created: 3,
      written: false,
    });
    expect((await upload("course-mappings", mappingsFile)).report).toMatchObject({
      created: 3,
      written: true,
    });
    expect((await upload("course-mappings", mappingsFile)).report).toMatchObject({
      created: 0,
      updated: 0,
      unchanged: 3,
    });
    const changed = await upload(
      "course-mappings",
      "course_code,programme,level,semester\nAGE 112,NCE Agricultural Education,100,2\n",
    );
    expect(changed.report).toMatchObject({ updated: 1 });
    const [entry] = await api.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "course_mapping.update")));
    expect(entry).toMatchObject({ before: { semester: 1 }, after: { semester: 2 } });
  });

  it("audits each written file as one summary row that the row of each record it wrote points to", async () => {
    const summaries = () =>
      api.db
        .select()
        .from(auditLog)
        .where(eq(auditLog.action, "courses.import"))
        .orderBy(auditLog.id);
    const partsOf = async (id: number) =>
      (await api.db.select().from(auditLog).where(eq(auditLog.partOf, id)))
        .map((row) => `${row.action} ${row.entityId}`)
        .sort();
    const course = async (code: string) =>
      (await api.db.select().from(courses).where(eq(courses.code, code)))[0]!.id;
    const earlier = (await summaries()).length;
    const first =
      "code,title,unit,semester\nEDU 111,History of Education,2,1\nEDU 112,Child Study,2,1\n";
    expect((await upload("courses", first)).report).toMatchObject({ written: true, created: 2 });
    const second = first.replace("Child Study,2", "Child Development,3");
    expect((await upload("courses", second)).report).toMatchObject({ updated: 1, unchanged: 1 });
    // A file that changes nothing writes no row.
    expect((await upload("courses", second)).report).toMatchObject({ written: true, unchanged: 2 });

    const written = (await summaries()).slice(earlier);
    expect(written).toEqual([
      expect.objectContaining({
        entity: "structure_import",
        staffId: registryId,
        after: { created: 2, updated: 0, unchanged: 0 },
        partOf: null,
      }),
      expect.objectContaining({
        entity: "structure_import",
        staffId: registryId,
        after: { created: 0, updated: 1, unchanged: 1 },
        partOf: null,
      }),
    ]);
    expect(await partsOf(written[0]!.id)).toEqual(
      [
        `course.create ${await course("EDU 111")}`,
        `course.create ${await course("EDU 112")}`,
      ].sort(),
    );
    expect(await partsOf(written[1]!.id)).toEqual([`course.update ${await course("EDU 112")}`]);

    const response = await api.request(`/staff/audit?part_of=${written[0]!.id}`, { token });
    expect(response.status).toBe(200);
    const opened = (await response.json()) as {
      data: { id: number; record: string; parts: number; part_of: number | null }[];
      total: number;
    };
    expect(opened.total).toBe(3);
    expect(opened.data.find((row) => row.id === written[0]!.id)).toMatchObject({
      record: "Academic structure import",
      parts: 2,
    });
  });

  it("names every refused row and its field, and writes none of the file", async () => {
    const before = await rowsIn(courses);
    const file = [
      "code,title,unit,semester",
      "NEW 101,A good course,2,1",
      "NEW 102,Too heavy,12,1",
      "NEW 103,No semester,2,third",
      "NEW 101,Listed twice,2,1",
      "101,No letters,2,1",
      "NEW 104,,2,1",
      "NEW 105,Half a unit,1.5,2",
    ].join("\n");
    const { status, report } = await upload("courses", file);
    expect(status).toBe(422);
    expect(report).toMatchObject({ written: false, created: 1 });
    expect(report.rejected).toEqual([
      {
        row: 3,
        field: "unit",
        message: 'The unit must be a whole number from 1 to 10; "12" is not.',
      },
      {
        row: 4,
        field: "semester",
        message: 'The semester must be 1, 2, first or second; "third" is not.',
      },
      { row: 5, field: "code", message: "NEW 101 is already on row 2; list each one once." },
      {
        row: 6,
        field: "code",
        message: '"101" is not a course code; codes look like BIO 111 (letters, then the number).',
      },
      { row: 7, field: "title", message: "The course title is empty." },
      {
        row: 8,
        field: "unit",
        message: 'The unit must be a whole number from 1 to 10; "1.5" is not.',
      },
    ]);
    expect(await rowsIn(courses)).toBe(before);
  });

  it("refuses unknown programmes, unknown courses and levels outside 100–500 in mappings", async () => {
    const file =
      "course_code,programme,level,semester\nAGE 111,NCE Basket Weaving,100,1\nZZZ 999,NCE Agricultural Education,100,1\nAGE 111,NCE Agricultural Education,600,1\nAGE 121,NCE Agricultural Education,200,2\nAGE 121,NCE Agricultural Education,200,1\n";
    const { report } = await upload("course-mappings", file);
    expect(report.rejected).toEqual([
      {
        row: 2,
        field: "programme",
        message:
          'There is no programme named "NCE Basket Weaving". Check the spelling against the programmes list.',
      },
      {
        row: 3,
        field: "course_code",
        message: "There is no course ZZZ 999. Import or add the course first.",
      },
      {
        row: 4,
        field: "level",
        message: 'The level must be 100, 200, 300, 400 or 500; "600" is not.',
      },
      {
        row: 6,
        field: "course_code",
        message:
          "AGE 121 for NCE Agricultural Education at 200 level is already on row 5; list each one once.",
      },
    ]);
    const unknownFaculty = await upload("departments", "name,faculty\nHausa,School of Nowhere\n");
    expect(unknownFaculty.report.rejected[0]).toMatchObject({
      row: 2,
      field: "faculty",
      message: expect.stringContaining('There is no faculty named "School of Nowhere"'),
    });
  });

  it.each([
    [
      "a wrong header",
      "course,title,unit,semester\nA,B,1,1\n",
      "The first line must be exactly: code,title,unit,semester",
    ],
    ["an empty file", "", "The file is empty."],
    ["a header alone", "code,title,unit,semester\n", "no rows"],
    [
      "a binary file",
      new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00, 0x14]),
      "not a CSV text file",
    ],
    [
      "a file in Windows-1252",
      new Uint8Array([
        ...new TextEncoder().encode("code,title,unit,semester\nFRE 101,Fran"),
        0xe7,
        0x61,
        0x69,
        0x73,
        0x2c,
        0x32,
        0x2c,
        0x31,
      ]),
      "not in UTF-8",
    ],
  ])("refuses %s with a clear message and writes nothing", async (_case, file, message) => {
    const before = await rowsIn(courses);
    const { status, message: answer } = await upload("courses", file);
    expect(status).toBe(400);
    expect(answer).toContain(message);
    expect(await rowsIn(courses)).toBe(before);
  });

  it("refuses a file over the size limit before reading it", async () => {
    const big = "code,title,unit,semester\n" + "ABC 101,Title,2,1\n".repeat(150_000);
    const { status } = await upload("courses", big);
    expect(status).toBe(413);
  });
});
