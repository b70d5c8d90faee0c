import { readFileSync } from "node:fs";
import { eq, sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiHarness, type ApiHarness } from "../testing/api-harness.test-kit.ts";
import { mailJobsTo } from "../testing/mail-jobs.test-kit.ts";
import { createStaff, staffSignIn } from "../staff/staff.test-kit.ts";
import { importFile, postImport, studentRow } from "../students/registry/students.test-kit.ts";
import { students } from "./schema.ts";
import { isUniqueViolation } from "./unique-violation.ts";

const onPostgres = process.env.TEST_DATABASE === "postgres";
const MIGRATION = readFileSync(
  new URL("./migrations/0013_email_lower_unique.sql", import.meta.url),
  "utf8",
);

let api: ApiHarness;
let registryToken: string;
let phones = 0;
/** A phone of its own for each student a test makes. */
const nextPhone = () => `0703${String(1_000_000 + ++phones)}`;

beforeAll(async () => {
  api = await createApiHarness();
  registryToken = await staffSignIn(api, await createStaff(api, { roles: ["registry"] }));
});
afterAll(() => api.close());

const asRegistry = (path: string, json: unknown) =>
  api.request(path, { method: "PATCH", json, token: registryToken });
const recordName = (student: { matricNo: string | null; applicationNo: string }) =>
  student.matricNo ?? student.applicationNo;

describe("one e-mail address, one student, whatever its case (decision 126)", () => {
  it("the database refuses a second student whose address differs only in case", async () => {
    await api.createStudent({ phone: nextPhone(), email: "Ada.Obi@Students.Example" });
    const second = api.createStudent({ phone: nextPhone(), email: "ada.obi@students.example" });
    const error = await second.then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(isUniqueViolation(error)).toBe(true);
  });

  it("the registry's correction is refused with the duplicate message", async () => {
    const owner = await api.createStudent({
      phone: nextPhone(),
      email: "Chidi.Nwosu@Students.Example",
    });
    const other = await api.createStudent({
      phone: nextPhone(),
      email: "someone.else@students.example",
    });
    const message = `That e-mail address is already on the record of another student (${recordName(owner)}).`;
    for (const email of [
      "chidi.nwosu@students.example",
      "CHIDI.NWOSU@STUDENTS.EXAMPLE",
      "Chidi.Nwosu@Students.Example",
    ]) {
      const answer = await asRegistry(`/staff/students/${other.id}`, { email });
      expect(answer.status).toBe(409);
      expect((await answer.json()).error.message).toBe(message);
    }
  });

  it("an imported row is refused with the duplicate message", async () => {
    const owner = await api.createStudent({
      phone: nextPhone(),
      email: "Bisi.Ade@Students.Example",
    });
    const answer = await postImport(
      api,
      registryToken,
      importFile([studentRow(900, { email: "bisi.ade@students.example" })]),
    );
    expect(answer.status).toBe(422);
    expect((await answer.json()).rejected).toEqual([
      {
        row: 2,
        field: "email",
        value: "bisi.ade@students.example",
        message: `This e-mail address is already on the record of another student (${recordName(owner)}).`,
      },
    ]);
  });

  it.skipIf(!onPostgres)(
    "a correction racing another change to the same address in another case is refused, not saved",
    async () => {
      const taker = await api.createStudent({
        phone: nextPhone(),
        email: "taker@students.example",
      });
      const other = await api.createStudent({
        phone: nextPhone(),
        email: "other@students.example",
      });
      const rival = new pg.Client({ connectionString: (api.connection as { url: string }).url });
      await rival.connect();
      try {
        // Another change, not yet committed, takes the address: the registry's check cannot see it.
        await rival.query("begin");
        await rival.query("update students set email = $1 where id = $2", [
          "Race.Taken@Students.Example",
          taker.id,
        ]);
        const correction = asRegistry(`/staff/students/${other.id}`, {
          email: "race.taken@students.example",
        });
        // The correction's UPDATE waits on the index entry the other change holds.
        await waitFor(
          async () => (await rival.query("select 1 from pg_locks where not granted")).rowCount! > 0,
        );
        await rival.query("commit");
        const answer = await correction;
        expect(answer.status).toBe(409);
        expect((await answer.json()).error.message).toBe(
          "Another student was given that matric number, application number, phone or e-mail a moment ago. Check the record and save again.",
        );
        const [kept] = await api.db.select().from(students).where(eq(students.id, other.id));
        expect(kept!.email).toBe("other@students.example");
      } finally {
        await rival.end();
      }
    },
  );

  it("a password reset asked for in another case reaches the student", async () => {
    const student = await api.createStudent({
      phone: nextPhone(),
      email: "Ngozi.Eze@Students.Example",
    });
    const answer = await api.request("/password/request-reset-email/", {
      method: "POST",
      json: {
        email: "NGOZI.EZE@students.example",
        redirect_url: "http://localhost:4321/password/reset",
      },
    });
    expect(answer.status).toBe(200);
    // The link is queued after the answer, so the answer cannot tell who has an account.
    await waitFor(async () => (await mailJobsTo(api.db, student.email)).length > 0);
    const [mail] = await mailJobsTo(api.db, student.email);
    expect(mail!.data.text).toMatch(/http:\/\/localhost:4321\/password\/reset\//);
  });

  it("looks students up by e-mail through the index", async () => {
    const lookup = api.db
      .select()
      .from(students)
      .where(eq(sql`lower(${students.email})`, "ngozi.eze@students.example"))
      .toSQL();
    const plan = await api.db.transaction(async (tx) => {
      // A table this small would be scanned anyway; the question is whether the index can serve.
      await tx.execute(sql`set local enable_seqscan = off`);
      return tx.execute(sql.raw(`explain ${inline(lookup.sql, lookup.params)}`));
    });
    expect(plan.rows.map((row) => Object.values(row)[0]).join("\n")).toContain(
      "students_email_lower_unique",
    );
  });
});

describe("migration 0013 (decision 126)", () => {
  /** The table as it was before 0013: e-mail unique as written, no index on lower(email). */
  async function undoMigration() {
    await api.db.execute(sql`drop index students_email_lower_unique`);
    await api.db.execute(
      sql`alter table students add constraint students_email_unique unique (email)`,
    );
  }
  const migrate = async () => {
    for (const statement of MIGRATION.split("--> statement-breakpoint"))
      await api.db.execute(sql.raw(statement));
  };

  it("stops, naming the students by id, when stored addresses differ only in case; runs once they are apart", async () => {
    await undoMigration();
    const first = await api.createStudent({
      phone: nextPhone(),
      email: "Musa.Garba@Students.Example",
    });
    const second = await api.createStudent({
      phone: nextPhone(),
      email: "musa.garba@students.example",
    });
    const failure = await migrate().then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(messagesOf(failure)).toContain(
      `Migration 0013_email_lower_unique: some students share one e-mail address written in different cases (student ids, by address: ${first.id}, ${second.id}).`,
    );
    expect(messagesOf(failure)).not.toContain("musa.garba");

    await api.db
      .update(students)
      .set({ email: "musa.garba.2@students.example" })
      .where(eq(students.id, second.id));
    await migrate();
    const again = await api
      .createStudent({ phone: nextPhone(), email: "MUSA.GARBA@students.example" })
      .then(
        () => null,
        (caught: unknown) => caught,
      );
    expect(isUniqueViolation(again)).toBe(true);
  });
});

/** Every message in an error's chain of causes (Drizzle wraps the driver's error). */
function messagesOf(error: unknown): string {
  const messages: string[] = [];
  for (let cause = error; cause instanceof Error; cause = cause.cause) messages.push(cause.message);
  return messages.join("\n");
}

/** `query` with its $n parameters written in as literals, for EXPLAIN. */
function inline(query: string, params: unknown[]) {
  return query.replace(
    /\$(\d+)/g,
    (_, n: string) => `'${String(params[Number(n) - 1]).replaceAll("'", "''")}'`,
  );
}

async function waitFor(condition: () => Promise<boolean>, timeoutMs = 5_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
