import { readFileSync } from "node:fs";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApi } from "../app.ts";
import type { Database, DatabaseHandle } from "../db/client.ts";
import { createApiHarness, type ApiHarness } from "../testing/api-harness.test-kit.ts";
import { openTestDatabase } from "../testing/test-database.test-kit.ts";
import { checkReadiness } from "./readiness.ts";

let api: ApiHarness;
beforeAll(async () => {
  api = await createApiHarness();
});
afterAll(() => api.close());

const migrationsShipped = (
  JSON.parse(
    readFileSync(new URL("../db/migrations/meta/_journal.json", import.meta.url), "utf8"),
  ) as { entries: unknown[] }
).entries.length;

/** The real API on another database (one we break), with everything else from the harness. */
function apiOn(database: DatabaseHandle) {
  return createApi({ ...api.deps, db: database.db });
}

describe("GET /healthz", () => {
  it("answers ok, uncached, without a session", async () => {
    const response = await api.app.request("/healthz");
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ok" });
    expect(response.headers.get("cache-control")).toBe("no-store");
  });

  it("does not touch the database: a closed one still answers ok", async () => {
    const database = await openTestDatabase();
    await database.close();
    const response = await apiOn(database).request("/healthz");
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ok" });
  });

  it("answers HEAD, and refuses other methods with 405", async () => {
    const head = await api.app.request("/healthz", { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
    for (const path of ["/healthz", "/readyz"]) {
      const post = await api.app.request(path, { method: "POST" });
      expect(post.status).toBe(405);
      expect(post.headers.get("allow")).toBe("GET, HEAD");
      expect(post.headers.get("cache-control")).toBe("no-store");
    }
  });
});

describe("GET /readyz", () => {
  it("answers ready when the database has every migration", async () => {
    const response = await api.app.request("/readyz");
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ready" });
    expect(response.headers.get("cache-control")).toBe("no-store");
  });

  it("answers 503 when the newest migration is not applied", async () => {
    const database = await openTestDatabase();
    try {
      await database.db.execute(
        sql`delete from drizzle.__drizzle_migrations where created_at = (select max(created_at) from drizzle.__drizzle_migrations)`,
      );
      const response = await apiOn(database).request("/readyz");
      expect(response.status).toBe(503);
      expect(await response.json()).toEqual({
        status: "not ready",
        reason: "1 database migration is not applied",
      });
      expect(response.headers.get("cache-control")).toBe("no-store");
    } finally {
      await database.close();
    }
  });

  it("answers 503 when the database was never migrated", async () => {
    const database = await openTestDatabase();
    try {
      await database.db.execute(sql`drop schema drizzle cascade`);
      const response = await apiOn(database).request("/readyz");
      expect(response.status).toBe(503);
      expect(await response.json()).toEqual({
        status: "not ready",
        reason: `${migrationsShipped} database migrations are not applied`,
      });
    } finally {
      await database.close();
    }
  });

  it("answers 503 when the database cannot be reached, and logs why without telling the caller", async () => {
    const database = await openTestDatabase();
    await database.close();
    const response = await apiOn(database).request("/readyz");
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({
      status: "not ready",
      reason: "the database is unreachable",
    });
    expect(
      api.logger.lines.some((line) => line.includes('"not ready"') && line.includes('"error"')),
    ).toBe(true);
  });

  it("answers 'not ready' when the database does not answer in time", async () => {
    const hanging = { execute: () => new Promise(() => {}) } as unknown as Database;
    const started = Date.now();
    expect(await checkReadiness(hanging, 50)).toEqual({
      ready: false,
      reason: "the database did not answer in time",
    });
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});
