import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import pg from "pg";
import { inject } from "vitest";
import { openDatabase, type DatabaseHandle } from "../db/client.ts";

/**
 * A fresh, migrated database for one test file: in-memory PGlite, or (TEST_DATABASE=postgres)
 * a new database created on the server named by DATABASE_URL and dropped on close. Each starts
 * as a copy of the migrated template database-template.ts made once for the run, where the
 * project has one; the migrations then find nothing left to apply.
 */
export async function openTestDatabase(): Promise<DatabaseHandle> {
  if (process.env.TEST_DATABASE !== "postgres") {
    const dumpFile = fromTemplateSetUp("pgliteTemplateDump");
    return openDatabase(dumpFile ? { fromDump: await readFile(dumpFile) } : {});
  }
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) throw new Error("TEST_DATABASE=postgres needs DATABASE_URL.");
  const name = `portal_test_${randomUUID().replaceAll("-", "")}`;
  const template = fromTemplateSetUp("postgresTemplateDatabase");
  await onServer(
    serverUrl,
    template ? `create database ${name} template ${template}` : `create database ${name}`,
  );
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const handle = await openDatabase({ url: url.toString() });
  return {
    ...handle,
    async close() {
      await handle.close();
      await onServer(serverUrl, `drop database if exists ${name} with (force)`);
    },
  };
}

/**
 * What database-template.ts handed on, if it ran: outside Vitest (a browser journey that starts
 * the API on a test database) there is no template, and the database is made from nothing.
 */
function fromTemplateSetUp<K extends "pgliteTemplateDump" | "postgresTemplateDatabase">(key: K) {
  try {
    return inject(key);
  } catch {
    return undefined;
  }
}

/** Runs one statement on the server's own database (creating or dropping a test database). */
export async function onServer(serverUrl: string, statement: string) {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(statement);
  } finally {
    await admin.end();
  }
}
