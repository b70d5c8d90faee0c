import { randomUUID } from "node:crypto";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { openDatabase } from "./client.ts";

const onPostgres = process.env.TEST_DATABASE === "postgres";

// PGlite belongs to one process; only a PostgreSQL server sees instances start together.
describe.skipIf(!onPostgres)("instances starting together on one PostgreSQL database", () => {
  it("apply the migrations once, whoever comes first, and all start", async () => {
    const serverUrl = process.env.DATABASE_URL!;
    const name = `portal_race_${randomUUID().replaceAll("-", "")}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    try {
      const handles = await Promise.all(
        Array.from({ length: 4 }, () => openDatabase({ url: url.toString(), poolSize: 1 })),
      );
      const check = new pg.Client({ connectionString: url.toString() });
      await check.connect();
      const applied = await check.query(
        "select hash, count(*)::int as times from drizzle.__drizzle_migrations group by hash",
      );
      const journal = await import("./migrations/meta/_journal.json", { with: { type: "json" } });
      await check.end();
      expect(applied.rows.length).toBe(journal.default.entries.length);
      expect(applied.rows.every((row: { times: number }) => row.times === 1)).toBe(true);
      await Promise.all(handles.map((handle) => handle.close()));
    } finally {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  });
});
