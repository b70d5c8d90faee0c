import { randomUUID } from "node:crypto";
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { createApi } from "../app.ts";
import { startJobQueue } from "../jobs/job-queue.ts";
import { createOutboxMailer } from "../mail/mailer.ts";
import { createPaymentReceipts } from "../payments/receipt.ts";
import { createApiHarness, TEST_PROXY_SECRET } from "../testing/api-harness.test-kit.ts";
import { createPhotoStorage } from "../uploads/photo-storage.ts";
import { databasePhotoBackend } from "../uploads/database-photos.ts";
import { PROXY_SECRET_HEADER } from "../../common/http/proxy-secret.ts";
import { openDatabase, type DatabaseHandle } from "./client.ts";
import {
  backupPgliteFolder,
  BackupRefused,
  dumpPglite,
  dumpPostgres,
  restorePgliteFolder,
  restorePostgres,
} from "./backup.ts";

// A backup is only as good as its restore (decision 130): each run dumps a database with a
// student in it, restores the dump into a fresh database, and signs the student in from there
// through the API. On PostgreSQL runs this needs pg_dump and pg_restore: without them it fails.

const onPostgres = process.env.TEST_DATABASE === "postgres";

let cleanUp: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  const steps = cleanUp.reverse();
  cleanUp = [];
  // Every step runs even when one fails: a scratch folder goes whatever else went wrong.
  let failure: unknown;
  for (const step of steps) await step().catch((error: unknown) => (failure ??= error));
  if (failure !== undefined) throw failure;
});

async function scratchFolder() {
  const dir = await mkdtemp(path.join(tmpdir(), "portal-backup-"));
  cleanUp.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** A new, empty database on the test server, dropped after the test. */
async function emptyPostgresDatabase() {
  const serverUrl = process.env.DATABASE_URL!;
  const name = `portal_restore_${randomUUID().replaceAll("-", "")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  cleanUp.push(async () => {
    const cleanup = new pg.Client({ connectionString: serverUrl });
    await cleanup.connect();
    await cleanup.query(`drop database if exists ${name} with (force)`);
    await cleanup.end();
  });
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Dumps `original` as `npm run db:backup` would, and restores the dump into a fresh database. */
async function backUpAndRestore(
  original: DatabaseHandle["jobConnection"],
): Promise<DatabaseHandle> {
  const dir = await scratchFolder();
  if ("url" in original) {
    const file = path.join(dir, "portal.dump");
    await dumpPostgres(original.url, file);
    const url = await emptyPostgresDatabase();
    await restorePostgres(file, url);
    // Every migration is in the dump: none is applied again (one would fail on its tables).
    return openDatabase({ url });
  }
  const file = path.join(dir, "portal.tar.gz");
  await dumpPglite(original.pglite, file);
  const folder = path.join(dir, "restored");
  await restorePgliteFolder(file, folder);
  return openDatabase({ dir: folder });
}

describe("a backup restored into a fresh database", () => {
  it("is ready, and signs in a student of the original with their password", async () => {
    const original = await createApiHarness();
    // Closed below, before the restored copy answers; here too, should the test fail before that.
    cleanUp.push(() => original.close());
    const student = await original.createStudent({
      phone: "08031234567",
      password: "restore-me-1",
    });
    const restored = await backUpAndRestore(original.connection);
    cleanUp.push(() => restored.close());
    // The original is gone (dropped, on PostgreSQL) before the restored copy answers anything.
    await original.close();

    const mailer = createOutboxMailer({
      dir: await scratchFolder(),
      from: "Portal <no-reply@college.test>",
    });
    const jobs = await startJobQueue(restored, { mailer, logger: original.logger });
    cleanUp.push(() => jobs.stop());
    const api = createApi({
      ...original.deps,
      db: restored.db,
      photos: createPhotoStorage(databasePhotoBackend(restored.db)),
      jobs,
      receipts: createPaymentReceipts({
        jobs,
        publicOrigin: original.deps.publicOrigin,
        slipSigningKey: original.deps.slipSigningKey,
      }),
    });
    const fromProxy = {
      "x-forwarded-for": "203.0.113.7",
      [PROXY_SECRET_HEADER]: TEST_PROXY_SECRET,
    };

    expect((await api.request("/readyz")).status).toBe(200);
    const signIn = await api.request("/student/uniben/login", {
      method: "POST",
      headers: { ...fromProxy, "content-type": "application/json" },
      body: JSON.stringify({ username: "08031234567", password: "restore-me-1" }),
    });
    expect(signIn.status).toBe(200);
    const token = (await signIn.json()).data.tokens.access as string;
    const me = await api.request("/student/me", {
      headers: { ...fromProxy, authorization: `Bearer ${token}` },
    });
    expect(me.status).toBe(200);
    expect(JSON.stringify(await me.json())).toContain(student.email);
  });
});

describe.runIf(onPostgres)("restoring on PostgreSQL", () => {
  it("refuses a database that already has tables, and changes nothing in it", async () => {
    const original = await createApiHarness();
    cleanUp.push(() => original.close());
    const dir = await scratchFolder();
    const file = path.join(dir, "portal.dump");
    const { url } = original.connection as { url: string };
    await dumpPostgres(url, file);
    await expect(restorePostgres(file, url)).rejects.toThrow(BackupRefused);
    await expect(restorePostgres(file, url)).rejects.toThrow(/already has tables/);
  });

  it("refuses a file that is not there", async () => {
    const url = await emptyPostgresDatabase();
    await expect(
      restorePostgres(path.join(await scratchFolder(), "missing.dump"), url),
    ).rejects.toThrow(/There is no backup at/);
  });
});

describe.runIf(!onPostgres)("PGlite folders", () => {
  it("backs up a closed folder that restores with its rows", async () => {
    const dir = await scratchFolder();
    const folder = path.join(dir, "pglite");
    const database = new PGlite(folder);
    await database.exec("create table notes (body text); insert into notes values ('kept')");
    await database.close();
    await backupPgliteFolder(folder, path.join(dir, "backup.tar.gz"));
    await restorePgliteFolder(path.join(dir, "backup.tar.gz"), path.join(dir, "restored"));
    const restored = new PGlite(path.join(dir, "restored"));
    expect((await restored.query("select body from notes")).rows).toEqual([{ body: "kept" }]);
    await restored.close();
  });

  it("refuses to back up a folder the portal has open", async () => {
    const folder = path.join(await scratchFolder(), "pglite");
    const open = new PGlite(folder);
    await open.query("select 1");
    cleanUp.push(() => open.close());
    await expect(
      backupPgliteFolder(folder, path.join(folder, "..", "backup.tar.gz")),
    ).rejects.toThrow(/The portal is using/);
  });

  it("refuses a folder with no database", async () => {
    const dir = await scratchFolder();
    await expect(backupPgliteFolder(dir, path.join(dir, "backup.tar.gz"))).rejects.toThrow(
      /There is no PGlite database in/,
    );
  });

  it("refuses to restore into a folder that has files, and leaves them", async () => {
    const dir = await scratchFolder();
    const target = path.join(dir, "pglite");
    await writeFile(path.join(dir, "backup.tar.gz"), "");
    await mkdir(target);
    await writeFile(path.join(target, "keep.txt"), "mine");
    await expect(restorePgliteFolder(path.join(dir, "backup.tar.gz"), target)).rejects.toThrow(
      /is not empty/,
    );
    expect(await readdir(target)).toEqual(["keep.txt"]);
  });

  it("refuses a file that is not a PGlite backup, leaving no folder behind", async () => {
    const dir = await scratchFolder();
    await writeFile(path.join(dir, "notes.txt"), "not a backup");
    await expect(
      restorePgliteFolder(path.join(dir, "notes.txt"), path.join(dir, "restored")),
    ).rejects.toThrow(/is not a PGlite backup/);
    expect(await readdir(dir)).toEqual(["notes.txt"]);
  });
});
