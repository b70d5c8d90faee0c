import { readFileSync } from "node:fs";
import { sql } from "drizzle-orm";
import type { Database } from "../db/client.ts";

export type Readiness = { ready: true } | { ready: false; reason: string };

/** How long a readiness probe waits for the database before it answers "not ready". */
export const READINESS_TIMEOUT_MS = 3_000;

const journalUrl = new URL("../db/migrations/meta/_journal.json", import.meta.url);
let migrationsShipped: number[] | undefined;

/**
 * When each migration this code was built with was generated: the key drizzle's migrator writes
 * into `created_at` of its own table for every migration it applies. Read once per process, since
 * the files cannot change under a running process.
 */
function shippedMigrations(): number[] {
  migrationsShipped ??= (
    JSON.parse(readFileSync(journalUrl, "utf8")) as { entries: { when: number }[] }
  ).entries.map((entry) => entry.when);
  return migrationsShipped;
}

/**
 * Whether this instance can serve: the database answers, and every migration in
 * server/db/migrations has been applied to it. An instance started before the migrations ran
 * (or against the wrong database) is kept out of the load balancer instead of failing requests.
 * The reason is short and names no host, table or error text: a probe's answer may be public.
 */
export async function checkReadiness(
  db: Database,
  timeoutMs = READINESS_TIMEOUT_MS,
): Promise<Readiness & { error?: string }> {
  let applied: Set<number>;
  try {
    const rows = await withTimeout(appliedMigrations(db), timeoutMs);
    if (rows === "timed out")
      return { ready: false, reason: "the database did not answer in time" };
    applied = rows;
  } catch (error) {
    if (isMissingTable(error)) applied = new Set();
    else return { ready: false, reason: "the database is unreachable", error: describe(error) };
  }
  const missing = shippedMigrations().filter((when) => !applied.has(when)).length;
  if (missing === 0) return { ready: true };
  return {
    ready: false,
    reason: `${missing} database migration${missing === 1 ? " is" : "s are"} not applied`,
  };
}

async function appliedMigrations(db: Database): Promise<Set<number>> {
  const result = await db.execute<{ created_at: string }>(
    sql`select created_at from drizzle.__drizzle_migrations`,
  );
  // node-postgres answers a bigint as a string (PGlite's thread too: decision 134).
  return new Set(result.rows.map((row) => Number(row.created_at)));
}

async function withTimeout<T>(work: Promise<T>, ms: number): Promise<T | "timed out"> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<"timed out">((resolve) => {
    timer = setTimeout(() => resolve("timed out"), ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** A database nobody has migrated yet has no drizzle schema or table: "none applied", not "unreachable". */
function isMissingTable(error: unknown) {
  const code = pgCode(error) ?? pgCode((error as { cause?: unknown } | null)?.cause);
  return code === "42P01" || code === "3F000";
}

function pgCode(error: unknown) {
  return typeof error === "object" && error !== null && "code" in error
    ? String((error as { code: unknown }).code)
    : undefined;
}

function describe(error: unknown) {
  const cause = (error as { cause?: unknown } | null)?.cause;
  return String(cause ?? error);
}
