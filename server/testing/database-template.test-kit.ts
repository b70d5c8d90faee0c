/**
 * Vitest's global set-up for the suites that open a test database per file (or per test):
 * migrates one database before any test file runs, and hands its name on, so that each test
 * database starts as a copy of it instead of from nothing. Opening a fresh in-memory PGlite runs
 * initdb (a second WebAssembly module) and every migration: ≈ 3–5 s a file on two cores, most of
 * the API suite's time on PGlite; a copy of a dump starts in about half of that. On PostgreSQL
 * the copy is `create database … template …`, which skips the migrations. The job queue's own
 * tables are made in the template too (another second a harness on PGlite).
 */
import { randomUUID } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import type { TestProject } from "vitest/node";
import { openDatabase, type DatabaseHandle } from "../db/client.ts";
import { createMemoryLogger } from "../http/logger.ts";
import { startJobQueue } from "../jobs/job-queue.ts";
import type { Mailer } from "../mail/mailer.ts";
import { onServer } from "./test-database.test-kit.ts";

declare module "vitest" {
  interface ProvidedContext {
    /** A plain tar of a migrated PGlite data folder, for `openDatabase({ fromDump })`. */
    pgliteTemplateDump: string | undefined;
    /** A migrated database on DATABASE_URL's server, when this project runs on PostgreSQL. */
    postgresTemplateDatabase: string | undefined;
  }
}

export default async function setup(project: TestProject) {
  const serverUrl = process.env.DATABASE_URL;
  const onPostgres = project.config.env?.TEST_DATABASE === "postgres";
  if (onPostgres && !serverUrl) throw new Error("TEST_DATABASE=postgres needs DATABASE_URL.");
  const folder = onPostgres
    ? undefined
    : await mkdtemp(path.join(tmpdir(), "portal-test-template-"));
  const templateName = onPostgres
    ? `portal_test_template_${randomUUID().replaceAll("-", "")}`
    : undefined;

  async function teardown() {
    if (folder) await rm(folder, { recursive: true, force: true });
    if (serverUrl && templateName)
      await onServer(serverUrl, `drop database if exists ${templateName} with (force)`);
  }
  try {
    if (folder) {
      const dumpFile = path.join(folder, "migrated.tar");
      const handle = await openDatabase({});
      try {
        if (!("pglite" in handle.jobConnection))
          throw new Error("An in-memory database should be PGlite.");
        await makeJobQueueTables(handle);
        // Plain: every test file would otherwise gunzip the same bytes again.
        await writeFile(dumpFile, gunzipSync(await handle.jobConnection.pglite.dump()));
      } finally {
        await handle.close();
      }
      project.provide("pgliteTemplateDump", dumpFile);
    }
    if (serverUrl && templateName) {
      await onServer(serverUrl, `create database ${templateName}`);
      const url = new URL(serverUrl);
      url.pathname = `/${templateName}`;
      // Migrated, then closed: PostgreSQL copies a template only while no one is connected to it.
      const handle = await openDatabase({ url: url.toString() });
      try {
        await makeJobQueueTables(handle);
      } finally {
        await handle.close();
      }
      project.provide("postgresTemplateDatabase", templateName);
    }
  } catch (error) {
    // Vitest runs no teardown for a set-up that failed: the folder and database go here.
    await teardown().catch(() => undefined);
    throw error;
  }
  return teardown;
}

/** Starts the queue once, as every harness does, and stops it before any mail could be sent. */
async function makeJobQueueTables(handle: DatabaseHandle) {
  // No outbox: a message here would be a bug, and it would land in no folder anyone removes.
  const mailer: Mailer = {
    send: () => Promise.reject(new Error("The template database's job queue sends no mail.")),
    describe: () => "no mail (template database)",
  };
  await (await startJobQueue(handle, { mailer, logger: createMemoryLogger() })).stop();
}
