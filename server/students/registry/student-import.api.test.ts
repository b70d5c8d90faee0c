import { count, eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, students } from "../../db/schema.ts";
import { createApiHarness, type ApiHarness } from "../../testing/api-harness.test-kit.ts";
import { CSV_MAX_ROWS } from "../../csv/csv-file.ts";
import { createStaff, staffSignIn } from "../../staff/staff.test-kit.ts";
import { ensureModes } from "../../structure/modes.ts";
import { IMPORT_HEADER, importFile, postImport, studentRow } from "./students.test-kit.ts";

let api: ApiHarness;
let registryToken: string;
let registryId: number;

beforeAll(async () => {
  api = await createApiHarness();
  const registry = await createStaff(api, { roles: ["registry"] });
  registryId = registry.id;
  registryToken = await staffSignIn(api, registry);
});
afterAll(() => api.close());

const importing = (file: Parameters<typeof postImport>[2], options: { dryRun?: boolean } = {}) =>
  postImport(api, registryToken, file, options);
const studentCount = async () => (await api.db.select({ n: count() }).from(students))[0]!.n;
const auditCount = async () => (await api.db.select({ n: count() }).from(auditLog))[0]!.n;

describe("importing students from a CSV file", () => {
  const file = importFile(
    [
      studentRow(1),
      studentRow(2, { email: "Funmi.Bello@Students.Example", matric_no: "coe/2024/bio/0002" }),
      studentRow(3),
    ],
    "\r\n",
  );

  it("a dry run reports what would happen and writes nothing", async () => {
    const before = { students: await studentCount(), audit: await auditCount() };
    const answer = await importing(file, { dryRun: true });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({
      dry_run: true,
      written: false,
      created: 3,
      updated: 0,
      unchanged: 0,
      rejected: [],
    });
    expect({ students: await studentCount(), audit: await auditCount() }).toEqual(before);
  });

  it("a real run writes every row with no usable password and an audit row each", async () => {
    const answer = await importing(`\uFEFF${file}`);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({
      dry_run: false,
      written: true,
      created: 3,
      updated: 0,
      unchanged: 0,
      rejected: [],
    });
    const [second] = await api.db
      .select()
      .from(students)
      .where(eq(students.matricNo, "COE/2024/BIO/0002"));
    expect(second).toMatchObject({
      email: "funmi.bello@students.example",
      phone: "08131000002",
      level: 100,
      biodataLocked: false,
    });
    expect(second!.passwordHash).toMatch(/^unusable\$/);
    const audits = await api.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, "student.import.create"));
    expect(audits).toHaveLength(3);
    expect(audits.find((entry) => entry.entityId === String(second!.id))).toMatchObject({
      staffId: registryId,
      entity: "student",
      after: {
        matric_no: "COE/2024/BIO/0002",
        programme: "NCE Biology/Chemistry",
        department: "Biology",
        level: 100,
      },
    });
  });

  it("importing the same file again changes nothing", async () => {
    const before = { students: await studentCount(), audit: await auditCount() };
    const answer = await importing(file);
    expect(await answer.json()).toMatchObject({
      written: true,
      created: 0,
      updated: 0,
      unchanged: 3,
    });
    expect({ students: await studentCount(), audit: await auditCount() }).toEqual(before);
  });

  it("a corrected row updates the student its matric number names, with before and after in the audit log", async () => {
    const answer = await importing(
      importFile([
        studentRow(1, { level: "200", surname: "Okafor-Eze" }),
        studentRow(2, { email: "funmi.bello@students.example" }),
        studentRow(3),
      ]),
    );
    expect(await answer.json()).toMatchObject({
      written: true,
      created: 0,
      updated: 1,
      unchanged: 2,
      changes: [
        {
          row: 2,
          key: "COE/2024/BIO/0001",
          fields: [
            { field: "surname", from: "Okafor", to: "Okafor-Eze" },
            { field: "level", from: "100", to: "200" },
          ],
        },
      ],
    });
    const [entry] = await api.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, "student.import.update"));
    expect(entry).toMatchObject({
      before: { surname: "Okafor", level: 100 },
      after: { surname: "Okafor-Eze", level: 200 },
    });
  });
});

describe("an old file imported again after the records changed", () => {
  const matric = (n: number) => `COE/2024/BIO/${String(n).padStart(4, "0")}`;
  const oldFile = importFile([studentRow(110), studentRow(111), studentRow(112)]);
  const byMatric = async (n: number) =>
    (
      await api.db
        .select()
        .from(students)
        .where(eq(students.matricNo, matric(n)))
    )[0]!;

  beforeAll(async () => {
    expect((await importing(oldFile)).status).toBe(200);
    // Since then: two students promoted to 200 level, and one changed their own phone and e-mail.
    await api.db
      .update(students)
      .set({ level: 200 })
      .where(like(students.matricNo, "COE/2024/BIO/011_"));
    await api.db
      .update(students)
      .set({ level: 100, phone: "08059990112", email: "new.112@students.example" })
      .where(eq(students.matricNo, matric(112)));
  });

  it("refuses each row that would lower a student's level, naming the level stored, and writes nothing", async () => {
    const before = { audit: await auditCount() };
    const checked = await importing(oldFile, { dryRun: true });
    const level = (n: number, row: number) => ({
      row,
      field: "level",
      value: "100",
      message: `${matric(n)} is at 200 level on the portal, above this row's 100: an import never lowers a level (is this an old file?). Correct a wrong level on the student's record.`,
    });
    expect(await checked.json()).toMatchObject({
      dry_run: true,
      updated: 1,
      rejected: [level(110, 2), level(111, 3)],
    });

    const refused = await importing(oldFile);
    expect(refused.status).toBe(422);
    expect(await refused.json()).toMatchObject({
      written: false,
      updated: 0,
      changes: [],
      rejected: [level(110, 2), level(111, 3)],
    });
    expect([
      (await byMatric(110)).level,
      (await byMatric(111)).level,
      (await byMatric(112)).phone,
    ]).toEqual([200, 200, "08059990112"]);
    expect({ audit: await auditCount() }).toEqual(before);
  });

  it("lists every field it would change, old and new, before the real run and again in its report", async () => {
    const file = importFile([
      studentRow(110, { level: "200" }),
      studentRow(111, { level: "300" }),
      studentRow(112),
    ]);
    const changes = [
      { row: 3, key: matric(111), fields: [{ field: "level", from: "200", to: "300" }] },
      {
        row: 4,
        key: matric(112),
        fields: [
          { field: "phone", from: "08059990112", to: "08131000112" },
          { field: "email", from: "new.112@students.example", to: "student.112@students.example" },
        ],
      },
    ];
    const checked = await importing(file, { dryRun: true });
    expect(await checked.json()).toMatchObject({
      dry_run: true,
      written: false,
      updated: 2,
      unchanged: 1,
      rejected: [],
      changes,
    });
    expect((await byMatric(112)).email).toBe("new.112@students.example");

    const written = await importing(file);
    expect(await written.json()).toMatchObject({
      written: true,
      updated: 2,
      unchanged: 1,
      changes,
    });
    expect(await byMatric(112)).toMatchObject({
      phone: "08131000112",
      email: "student.112@students.example",
    });
    expect((await byMatric(111)).level).toBe(300);
  });
});

describe("rows that cannot be imported", () => {
  beforeAll(async () => {
    await api.createStudent({ phone: "08039999999", email: "taken@students.example" });
    await ensureModes(api.db, "study", ["Part-Time"]);
    await ensureModes(api.db, "entry", ["Direct Entry"]);
  });

  it.each([
    [
      "an unknown programme",
      { programme: "NCE Basket Weaving" },
      "programme",
      'There is no programme named "NCE Basket Weaving"',
    ],
    [
      "an unknown department",
      { department: "Astrology" },
      "department",
      'There is no department named "Astrology"',
    ],
    ["a malformed phone", { phone: "0803 12" }, "phone", "Enter a Nigerian mobile number"],
    [
      "a phone the spreadsheet rounded",
      { phone: "2.34813E+12" },
      "phone",
      "The spreadsheet turned this phone number into 2.34813E+12 and lost its last digits. Format the phone column as Text",
    ],
    ["a malformed e-mail", { email: "ada@students" }, "email", "Enter a valid e-mail address"],
    [
      "a level above 500",
      { level: "600" },
      "level",
      "The level must be 100, 200, 300, 400 or 500.",
    ],
    ["a level that is not a number", { level: "year one" }, "level", "The level must be 100"],
    [
      "a session of non-consecutive years",
      { entry_session: "2024/2026" },
      "entry_session",
      "two consecutive years",
    ],
    [
      "a session written short",
      { entry_session: "24/25" },
      "entry_session",
      "two consecutive years",
    ],
    [
      "a formula in a name",
      { surname: '=HYPERLINK("http://evil.example","Click")' },
      "surname",
      "letters, spaces, hyphens and apostrophes only",
    ],
    [
      "a formula as the programme",
      { programme: "=1+1" },
      "programme",
      'There is no programme named "=1+1"',
    ],
    [
      "the phone of an existing student",
      { phone: "+234 803 999 9999" },
      "phone",
      "already on the record of another student",
      "08039999999",
    ],
    [
      "the e-mail of an existing student",
      { email: "TAKEN@students.example" },
      "email",
      "already on the record of another student",
      "taken@students.example",
    ],
    ["a missing matric number", { matric_no: "" }, "matric_no", "Enter the matric number."],
    [
      "an unknown study mode",
      { study_mode: "Sandwich" },
      "study_mode",
      'There is no study mode "Sandwich". The registry\'s study modes are: "Full Time", "Part-Time".',
    ],
    [
      "an unknown entry mode",
      { entry_mode: "Transfer" },
      "entry_mode",
      'There is no entry mode "Transfer". The registry\'s entry modes are: "Direct Entry", "UTME".',
    ],
  ])(
    "refuses %s, naming row and column, beside the value, and writes no row at all",
    async (_case, change, field, message, value?: string) => {
      const before = { students: await studentCount(), audit: await auditCount() };
      const answer = await importing(importFile([studentRow(50), studentRow(51, change)]));
      expect(answer.status).toBe(422);
      const report = await answer.json();
      expect(report).toMatchObject({
        dry_run: false,
        written: false,
        created: 0,
        updated: 0,
        unchanged: 0,
      });
      expect(report.message).toContain("nothing was written");
      // The cell as the file has it (as read, for a value compared with other students).
      expect(report.rejected).toEqual([
        {
          row: 3,
          field,
          value: value ?? Object.values(change)[0],
          message: expect.stringContaining(message),
        },
      ]);
      expect({ students: await studentCount(), audit: await auditCount() }).toEqual(before);
    },
  );

  it("refuses a phone, e-mail or matric number used twice in one file, pointing at the first row", async () => {
    const answer = await importing(
      importFile([
        studentRow(60),
        studentRow(61, { phone: "+2348131000060" }),
        studentRow(62, { email: "STUDENT.60@students.example" }),
        studentRow(60, {
          application_no: "APP/X/1",
          phone: "08131000099",
          email: "x@students.example",
        }),
      ]),
      { dryRun: true },
    );
    expect(answer.status).toBe(200);
    const report = await answer.json();
    expect(report).toMatchObject({ dry_run: true, written: false, created: 1 });
    expect(report.rejected).toEqual([
      {
        row: 3,
        field: "phone",
        value: "+2348131000060",
        message: "The same phone number as row 2: each student needs their own.",
      },
      {
        row: 4,
        field: "email",
        value: "STUDENT.60@students.example",
        message: "The same e-mail address as row 2: each student needs their own.",
      },
      {
        row: 5,
        field: "matric_no",
        value: "COE/2024/BIO/0060",
        message: "The same matric number as row 2: each student needs their own.",
      },
    ]);
  });

  it("names the row the spreadsheet shows when a blank line comes before it", async () => {
    const answer = await importing(
      importFile([studentRow(63), "", studentRow(64), studentRow(65, { level: "600" })]),
      { dryRun: true },
    );
    const report = await answer.json();
    expect(report).toMatchObject({ created: 2 });
    expect(report.rejected).toEqual([
      {
        row: 5,
        field: "level",
        value: "600",
        message: expect.stringContaining("The level must be 100"),
      },
    ]);
  });

  it("ignores the rows of bare commas a spreadsheet leaves where cells were cleared", async () => {
    const cleared = ",".repeat(IMPORT_HEADER.split(",").length - 1);
    const answer = await importing(
      importFile([studentRow(66), studentRow(67), ...Array(24).fill(cleared)], "\r\n"),
      { dryRun: true },
    );
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ created: 2, rejected: [] });
  });

  it("reads a phone a spreadsheet stripped of its leading 0 as the number with it", async () => {
    const answer = await importing(importFile([studentRow(68, { phone: "8131000068" })]));
    expect(await answer.json()).toMatchObject({ written: true, created: 1, rejected: [] });
    const [imported] = await api.db
      .select()
      .from(students)
      .where(eq(students.matricNo, "COE/2024/BIO/0068"));
    expect(imported!.phone).toBe("08131000068");
  });

  it("matches a mode on the registry's list whatever its case, spaces and hyphens, and stores the list's spelling", async () => {
    const spellings = ["Part Time", "part-time", "PART TIME", "Parttime", " part  time "];
    const answer = await importing(
      importFile(
        spellings.map((study_mode, at) =>
          studentRow(71 + at, { study_mode, entry_mode: "direct entry" }),
        ),
      ),
    );
    expect(await answer.json()).toMatchObject({ written: true, created: 5, rejected: [] });
    const imported = await api.db
      .select({ studyMode: students.studyMode, entryMode: students.entryMode })
      .from(students)
      .where(like(students.matricNo, "COE/2024/BIO/007_"));
    expect(
      imported.filter((row) => row.studyMode === "Part-Time" && row.entryMode === "Direct Entry"),
    ).toHaveLength(5);
  });

  it("imports students with no e-mail address, several in one file", async () => {
    const answer = await importing(
      importFile([studentRow(76, { email: "" }), studentRow(77, { email: "" })]),
    );
    expect(await answer.json()).toMatchObject({ written: true, created: 2, rejected: [] });
    const imported = await api.db
      .select({ email: students.email })
      .from(students)
      .where(like(students.matricNo, "COE/2024/BIO/007_"));
    expect(imported.filter((row) => row.email === null)).toHaveLength(2);
  });

  it("matches programme and department names without regard to case or spacing", async () => {
    const answer = await importing(
      importFile([studentRow(70, { programme: "nce  biology/chemistry", department: " BIOLOGY" })]),
      { dryRun: true },
    );
    expect(await answer.json()).toMatchObject({ created: 1, rejected: [] });
  });
});

describe("files refused whole", () => {
  const bytes = (text: string) => new TextEncoder().encode(text);

  it.each([
    ["an empty file", new Uint8Array(), 400, "The file is empty."],
    ["a header alone", bytes(`${IMPORT_HEADER}\n`), 400, "no rows"],
    [
      "a header over rows of bare commas",
      bytes(importFile([",,,,,,,,,,,", "", ",,,,,,,,,,,"])),
      400,
      "The file has a header but no rows: the lines below it are empty (blank, or only commas).",
    ],
    [
      "a misspelt column",
      bytes(importFile([studentRow(80)]).replace("matric_no", "Matric No.")),
      400,
      `The first line must be exactly: ${IMPORT_HEADER} (Misspelt: "matric no." should be "matric_no".)`,
    ],
    [
      "missing columns",
      bytes(`matric_no,surname\nCOE/1,Okafor\n`),
      400,
      "(Missing: application_no, othername, phone, email, programme, department, level, entry_session, entry_mode, study_mode.)",
    ],
    [
      "an extra column",
      bytes(importFile([studentRow(80)]).replace("study_mode", "study_mode,notes")),
      400,
      "(Not expected: notes.)",
    ],
    [
      "a column in another place",
      bytes(importFile([studentRow(80)]).replace("surname,othername", "othername,surname")),
      400,
      "(The columns are all there, but in another order.)",
    ],
    [
      "a misspelt and a missing column",
      bytes(
        importFile([studentRow(80)])
          .replace("email,", "E-mail,")
          .replace(",study_mode", ",studymod")
          .replace(",department", ""),
      ),
      400,
      '(Misspelt: "e-mail" should be "email"; "studymod" should be "study_mode". Missing: department.)',
    ],
    [
      "a binary file (.xlsx)",
      new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x00, 0x00]),
      400,
      "not a CSV text file",
    ],
    [
      "a Windows-1252 file",
      new Uint8Array([...bytes(`${IMPORT_HEADER}\nCOE/1,APP/1,Ad`), 0xe9, ...bytes(",x\n")]),
      400,
      "not in UTF-8",
    ],
    ["a UTF-16 file", new Uint8Array([0xff, 0xfe, ...bytes("m")]), 400, "not a CSV text file"],
    [
      "a 20 MB file",
      new Uint8Array(20 * 1024 * 1024).fill(0x61),
      413,
      "The file is larger than 2 MB",
    ],
    [
      "too many rows",
      bytes(importFile(Array.from({ length: CSV_MAX_ROWS + 1 }, () => "x"))),
      400,
      `at most ${CSV_MAX_ROWS}`,
    ],
  ])("refuses %s with a clear message", async (_case, file, status, message) => {
    const before = await studentCount();
    const answer = await importing(file);
    expect(answer.status).toBe(status);
    expect((await answer.json()).error.message).toContain(message);
    expect(await studentCount()).toBe(before);
  });

  it("refuses a request without a file, with a wrong dry_run, or sent as JSON", async () => {
    const noFile = new FormData();
    noFile.set("dry_run", "true");
    const wrongFlag = new FormData();
    wrongFlag.set("file", new File([importFile([studentRow(90)])], "s.csv"));
    wrongFlag.set("dry_run", "maybe");
    const answers = await Promise.all([
      api.request("/staff/students/import", { method: "POST", body: noFile, token: registryToken }),
      api.request("/staff/students/import", {
        method: "POST",
        body: wrongFlag,
        token: registryToken,
      }),
      api.request("/staff/students/import", {
        method: "POST",
        json: { file: "x" },
        token: registryToken,
      }),
    ]);
    expect(
      await Promise.all(
        answers.map(async (answer) => [answer.status, (await answer.json()).error.message]),
      ),
    ).toEqual([
      [400, "Choose a CSV file to import."],
      [400, "dry_run must be true or false."],
      [400, 'Send the file as a form upload (multipart/form-data) in the field "file".'],
    ]);
    expect(
      await api.db.select().from(students).where(like(students.matricNo, "COE/2024/BIO/0090")),
    ).toEqual([]);
  });
});
