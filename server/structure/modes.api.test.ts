import { readFileSync } from "node:fs";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, entryModes, feeSchedule, studyModes, students } from "../db/schema.ts";
import { createApiHarness, type ApiHarness } from "../testing/api-harness.test-kit.ts";
import { modeKey } from "../../common/structure/modes.ts";
import { createStaff, staffSignIn } from "../staff/staff.test-kit.ts";

// Decision 154: study and entry modes are lists the registry keeps, matched whatever the case,
// spaces and hyphens, and every student and fee names a mode on them.

let api: ApiHarness;
let registry: string;
let bursar: string;

beforeAll(async () => {
  api = await createApiHarness();
  registry = await staffSignIn(api, await createStaff(api, { roles: ["registry"] }));
  bursar = await staffSignIn(api, await createStaff(api, { roles: ["bursar"], totp: true }));
});
afterAll(() => api.close());

const send = async (method: string, path: string, json?: unknown, token = registry) => {
  const response = await api.request(path, { method, json, token });
  return { status: response.status, body: await response.json() };
};

describe("the matching key", () => {
  it.each([
    ["Part-Time"],
    ["part time"],
    ["PART TIME"],
    ["Parttime"],
    [" Part_Time. "],
    ["Pärt-Timé"],
  ])("%j is part-time", (name) => {
    expect(modeKey(name)).toBe("parttime");
  });

  it("is the key the database computes for the list's unique index", async () => {
    const names = ["Part-Time", "Sandwich (Holiday)", "Full Time – Evening", "Pärt Timé"];
    const rows = await api.db.execute<{ key: string }>(
      sql`select regexp_replace(lower(normalize(name, NFKD)), '[^a-z0-9]', '', 'g') as key from unnest(${sql.raw(`array[${names.map((name) => `'${name}'`).join(",")}]`)}::text[]) as name`,
    );
    expect(rows.rows.map((row) => row.key)).toEqual(names.map(modeKey));
  });
});

describe("the registry keeps the lists", () => {
  it("adds a mode, refuses another spelling of one on the list, and audits it", async () => {
    const added = await send("POST", "/staff/modes/study", { name: "  Part  Time " });
    expect(added).toMatchObject({
      status: 201,
      body: { message: 'Study mode "Part Time" added.', data: { name: "Part Time" } },
    });
    for (const name of ["part-time", "PARTTIME"]) {
      const again = await send("POST", "/staff/modes/study", { name });
      expect(again).toMatchObject({
        status: 409,
        body: {
          message: `"${name}" is the same study mode as "Part Time", already on the list (capitals, spaces and hyphens aside).`,
        },
      });
    }
    const [entry] = await api.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, "study_mode.create"));
    expect(entry).toMatchObject({ entity: "study_mode", after: { name: "Part Time" } });
  });

  it("renames a mode, and every student and fee that names it follows", async () => {
    const [mode] = await api.db.select().from(studyModes).where(eq(studyModes.name, "Part Time"));
    const student = await api.createStudent({ studyMode: "Part Time" });
    await api.db.insert(feeSchedule).values({
      session: "2024/2025",
      level: 100,
      paymentOption: "full",
      studyMode: "Part Time",
      amountKobo: 13_000_000,
    });
    const renamed = await send("PATCH", `/staff/modes/study/${mode!.id}`, { name: "Part-Time" });
    expect(renamed).toMatchObject({
      status: 200,
      body: {
        message: 'Renamed: "Part Time" is now "Part-Time", on every student and fee that had it.',
      },
    });
    expect(
      (await api.db.select().from(students).where(eq(students.id, student.id)))[0]!.studyMode,
    ).toBe("Part-Time");
    expect(
      (await api.db.select().from(feeSchedule).where(eq(feeSchedule.amountKobo, 13_000_000)))[0]!
        .studyMode,
    ).toBe("Part-Time");
    const [entry] = await api.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, "study_mode.update"));
    expect(entry).toMatchObject({ before: { name: "Part Time" }, after: { name: "Part-Time" } });
    const list = await send("GET", "/staff/modes", undefined, bursar);
    expect(list.body.data.study).toEqual([
      { id: expect.any(Number), name: "Full Time", students: 0, fees: 0 },
      { id: mode!.id, name: "Part-Time", students: 1, fees: 1 },
    ]);
  });

  it.each([
    [
      "a name that is another mode's",
      "study",
      () => ({ name: "full-time" }),
      409,
      'is the same study mode as "Full Time"',
    ],
    ["an empty name", "study", () => ({ name: "  " }), 400, "Enter the name."],
    ["a formula", "entry", () => ({ name: "=1+1" }), 400, "Write the name in words"],
    [
      "a name too long",
      "entry",
      () => ({ name: "Direct ".repeat(7) }),
      400,
      "longer than 40 characters",
    ],
  ])("refuses %s and changes nothing", async (_case, kind, json, status, message) => {
    const before = [await api.db.select().from(studyModes), await api.db.select().from(entryModes)];
    const [mode] =
      kind === "study"
        ? await api.db.select().from(studyModes).where(eq(studyModes.name, "Part-Time"))
        : await api.db.select().from(entryModes);
    const answer = await send("PATCH", `/staff/modes/${kind}/${mode!.id}`, json());
    expect(answer.status).toBe(status);
    expect(answer.body.error.message).toContain(message);
    expect([
      await api.db.select().from(studyModes),
      await api.db.select().from(entryModes),
    ]).toEqual(before);
  });

  it("answers 404 for a mode that is not there and 400 for a kind that is not a list", async () => {
    for (const id of ["999999", "99999999999"])
      expect((await send("PATCH", `/staff/modes/study/${id}`, { name: "Weekend" })).status).toBe(
        404,
      );
    expect((await send("PATCH", "/staff/modes/study/abc", { name: "Weekend" })).status).toBe(400);
    expect(
      (await send("POST", "/staff/modes/payment", { name: "Weekend" })).body.error.message,
    ).toBe("There are study modes and entry modes only.");
  });

  it("lets only the registry change the lists", async () => {
    expect(
      (await send("POST", "/staff/modes/entry", { name: "Direct Entry" }, bursar)).status,
    ).toBe(403);
    expect((await api.request("/staff/modes", {})).status).toBe(401);
  });
});

describe("migration 0018 maps the free-text modes", () => {
  const MIGRATION = readFileSync(
    new URL("../db/migrations/0018_registry_modes_and_search.sql", import.meta.url),
    "utf8",
  );

  /** The tables as they were before 0018: modes as free text on students and fees. */
  async function undoMigration(db: ApiHarness["db"]) {
    for (const statement of [
      "alter table students drop constraint students_entry_mode_entry_modes_name_fk",
      "alter table students drop constraint students_study_mode_study_modes_name_fk",
      "alter table fee_schedule drop constraint fee_schedule_study_mode_study_modes_name_fk",
      "alter table students drop column search_name",
      "alter table password_reset_tokens drop column purpose, drop column sent_to, drop column replaced_at",
      "drop table study_modes",
      "drop table entry_modes",
    ])
      await db.execute(sql.raw(statement));
  }

  it(
    "collapses spellings into one entry named as most rows spell it, and keeps the newest of two fees that become one",
    { timeout: 120_000 },
    async () => {
      const fresh = await createApiHarness();
      try {
        const made = [];
        for (let n = 0; n < 6; n += 1) made.push(await fresh.createStudent());
        await fresh.db.insert(feeSchedule).values([
          {
            session: "2024/2025",
            level: 100,
            paymentOption: "full",
            studyMode: null,
            amountKobo: 10_000_000,
          },
          {
            session: "2024/2025",
            level: 100,
            paymentOption: "full",
            studyMode: "Full Time",
            amountKobo: 11_000_000,
          },
        ]);
        await undoMigration(fresh.db);
        const spelled = [
          "Part Time",
          "part-time",
          "Part Time",
          "PART  TIME ",
          "Full Time",
          "Full Time",
        ];
        for (const [at, student] of made.entries()) {
          await fresh.db.execute(
            sql`update students set study_mode = ${spelled[at]}, entry_mode = ${at % 2 ? "direct entry" : "Direct Entry"} where id = ${student.id}`,
          );
        }
        await fresh.db.execute(
          sql`insert into fee_schedule (session, level, payment_option, study_mode, amount_kobo) values ('2024/2025', 100, 'part', 'Part-Time', 6000000), ('2024/2025', 100, 'part', 'part time', 6500000)`,
        );

        for (const statement of MIGRATION.split("--> statement-breakpoint"))
          await fresh.db.execute(sql.raw(statement));

        expect(
          (await fresh.db.select({ name: studyModes.name }).from(studyModes))
            .map((row) => row.name)
            .sort(),
        ).toEqual(["Full Time", "Part Time"]);
        expect(
          (await fresh.db.select({ name: entryModes.name }).from(entryModes))
            .map((row) => row.name)
            .sort(),
        ).toEqual(["Direct Entry"]);
        const stored = await fresh.db
          .select({ studyMode: students.studyMode, entryMode: students.entryMode })
          .from(students);
        expect(stored.filter((row) => row.studyMode === "Part Time")).toHaveLength(4);
        expect(stored.filter((row) => row.entryMode === "Direct Entry")).toHaveLength(6);
        const partFees = await fresh.db
          .select()
          .from(feeSchedule)
          .where(and(eq(feeSchedule.paymentOption, "part"), eq(feeSchedule.level, 100)));
        // Older: kept, marked replaced. Newer: in force.
        const inForce = partFees
          .sort((a, b) => a.id - b.id)
          .map((fee) => [fee.studyMode, fee.amountKobo, fee.replacedAt === null]);
        expect(inForce).toEqual([
          ["Part Time", 6_000_000, false],
          ["Part Time", 6_500_000, true],
        ]);
        // The folded search column was filled for every student already there.
        const [folded] = await fresh.db
          .select({ searchName: students.searchName })
          .from(students)
          .limit(1);
        expect(folded!.searchName).toMatch(/^adebayo tolu \d+ \/ tolu \d+ adebayo$/);
      } finally {
        await fresh.close();
      }
    },
  );
});
