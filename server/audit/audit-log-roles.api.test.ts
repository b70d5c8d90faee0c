import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type DatabaseHandle } from "../db/client.ts";
import { createMemoryLogger } from "../http/logger.ts";
import { startJobQueue } from "../jobs/job-queue.ts";
import { recordAudit } from "./audit.ts";

// Decision 162: in production the portal's role cannot undo the audit log's triggers. The set-up
// is README's own SQL, read from README, so the test and the instructions cannot drift apart.
// Roles belong to the whole server: PGlite has one role and nothing to check.
const onPostgres = process.env.TEST_DATABASE === "postgres";
const repository = fileURLToPath(new URL("../..", import.meta.url));

/** The SQL blocks of README's "The audit log": the superuser's, then the owner's. */
async function readmeSql() {
  const readme = await readFile(`${repository}/README.md`, "utf8");
  const section = readme.split("\n### The audit log\n")[1]?.split("\n### ")[0] ?? "";
  return [...section.matchAll(/```sql\n([\s\S]*?)```/g)].map((match) => match[1]!);
}

/** One by one: CREATE DATABASE refuses to run in a multi-statement query's implicit transaction. */
const statements = (block: string) =>
  block
    .replace(/--.*$/gm, "")
    .split(";")
    .map((statement) => statement.trim())
    .filter(Boolean);

async function runAs(url: string, sql: string[]) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (const statement of sql) await client.query(statement);
  } finally {
    await client.end();
  }
}

describe.skipIf(!onPostgres)("README's production roles for the audit log (decision 162)", () => {
  const serverUrl = process.env.DATABASE_URL!;
  // README's role `portal` and database `portal` share a name here too, as they may.
  const name = `audit_roles_${randomUUID().replaceAll("-", "").slice(0, 16)}`;
  const owner = `${name}_owner`;
  const urlOf = (role: string, password: string) => {
    const url = new URL(serverUrl);
    url.username = role;
    url.password = password;
    url.pathname = `/${name}`;
    return url.toString();
  };
  let ownerUrl = "";
  let portalUrl = "";
  let portal: DatabaseHandle | undefined;
  let asPortal: pg.Client | undefined;

  beforeAll(async () => {
    const blocks = await readmeSql();
    expect(blocks).toHaveLength(2);
    const [superuser, ownerGrants] = blocks.map((block) =>
      block.replace(/\bportal(_owner)?\b/g, (found) => (found === "portal" ? name : owner)),
    );
    const passwords = new Map(
      [...superuser!.matchAll(/CREATE ROLE (\w+) LOGIN PASSWORD '([^']*)'/g)].map((match) => [
        match[1]!,
        match[2]!,
      ]),
    );
    expect([...passwords.keys()].sort()).toEqual([name, owner]);
    ownerUrl = urlOf(owner, passwords.get(owner)!);
    portalUrl = urlOf(name, passwords.get(name)!);

    await runAs(serverUrl, statements(superuser!));
    // "Then migrate as the owner": README's command, with the owner's DATABASE_URL. npm would
    // otherwise leave its compile cache in the run's temporary folder.
    await promisify(execFile)("npm", ["run", "--silent", "db:migrate"], {
      cwd: repository,
      env: { ...process.env, DATABASE_URL: ownerUrl, NODE_DISABLE_COMPILE_CACHE: "1" },
    });
    await runAs(ownerUrl, statements(ownerGrants!));

    // The portal starts as it would: it checks the migrations journal, then the job queue makes
    // its own schema.
    portal = await openDatabase({ url: portalUrl, poolSize: 1 });
    const mailer = { send: async () => undefined, describe: () => "none" };
    await (await startJobQueue(portal, { mailer, logger: createMemoryLogger() })).stop();
    asPortal = new pg.Client({ connectionString: portalUrl });
    await asPortal.connect();
  }, 30_000);

  afterAll(async () => {
    await asPortal?.end();
    await portal?.close();
    // The database holds everything the roles own or were granted, so it goes first.
    await runAs(serverUrl, [
      `drop database if exists ${name} with (force)`,
      `drop role if exists ${name}`,
      `drop role if exists ${owner}`,
    ]);
  });

  it("lets the portal add audit rows and read them", async () => {
    await recordAudit(
      portal!.db,
      { staffId: null, action: "test.portal_role", entity: "test" },
      new Date(),
    );
    const rows = await asPortal!.query("select action from audit_log");
    expect(rows.rows).toEqual([{ action: "test.portal_role" }]);
  });

  // 42501 is PostgreSQL's insufficient_privilege: the role is refused before any trigger runs,
  // so these stay refused whatever becomes of the triggers.
  it.each([
    ["UPDATE", "update audit_log set action = 'forged'"],
    ["DELETE", "delete from audit_log"],
    ["TRUNCATE", "truncate audit_log"],
    ["DROP TRIGGER", "drop trigger audit_log_append_only on audit_log"],
    ["DROP TRIGGER (TRUNCATE's)", "drop trigger audit_log_no_truncate on audit_log"],
    ["DISABLE TRIGGER", "alter table audit_log disable trigger audit_log_append_only"],
    ["DISABLE TRIGGER USER", "alter table audit_log disable trigger user"],
    ["DROP TABLE", "drop table audit_log"],
    [
      "replacing the trigger's function",
      "create or replace function public.audit_log_is_append_only() returns trigger language plpgsql as $$ begin return null; end; $$",
    ],
  ])("refuses the portal %s on the audit log", async (_what, statement) => {
    const rows = async () =>
      (await asPortal!.query("select count(*)::int as n from audit_log")).rows[0].n as number;
    const before = await rows();
    await expect(asPortal!.query(statement)).rejects.toMatchObject({
      code: "42501",
      message: expect.stringMatching(/^(permission denied|must be owner)/),
    });
    expect(await rows()).toBe(before);
  });

  it("keeps both triggers on the audit log, enabled", async () => {
    const triggers = await asPortal!.query(
      "select tgname, tgenabled from pg_trigger where tgrelid = 'audit_log'::regclass and not tgisinternal order by tgname",
    );
    expect(triggers.rows).toEqual([
      { tgname: "audit_log_append_only", tgenabled: "O" },
      { tgname: "audit_log_no_truncate", tgenabled: "O" },
    ]);
  });

  it("never lets the portal's own schema stand in for the owner's tables", async () => {
    // The portal may create schemas (for the job queue); one named after the owner would come
    // first in PostgreSQL's default search path, and the owner's migrations would run against
    // the portal's tables, and its triggers, as the owner.
    await asPortal!.query(`create schema ${owner}`);
    await asPortal!.query(`create table ${owner}.audit_log (id int)`);
    await asPortal!.query(`grant usage on schema ${owner} to ${owner}`);
    const client = new pg.Client({ connectionString: ownerUrl });
    await client.connect();
    try {
      const found = await client.query(
        "select n.nspname from pg_class c join pg_namespace n on n.oid = c.relnamespace where c.oid = 'audit_log'::regclass",
      );
      expect(found.rows).toEqual([{ nspname: "public" }]);
    } finally {
      await client.end();
      await asPortal!.query(`drop schema ${owner} cascade`);
    }
  });

  it("gives the portal the tables a later migration creates as the owner", async () => {
    await runAs(ownerUrl, ["create table later_table (id serial primary key, note text)"]);
    await asPortal!.query("insert into later_table (note) values ('from the portal')");
    const rows = await asPortal!.query("select note from later_table");
    expect(rows.rows).toEqual([{ note: "from the portal" }]);
  });
});
