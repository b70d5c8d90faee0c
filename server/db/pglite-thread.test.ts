import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { gunzipSync } from "node:zlib";
import { afterEach, describe, expect, it, vi } from "vitest";
import { connectPgliteThread, startPgliteThread, type PgliteThread } from "./pglite-thread.ts";

const started: PgliteThread[] = [];
async function start(dir?: string) {
  const thread = await startPgliteThread(dir);
  started.push(thread);
  return thread;
}
afterEach(async () => {
  await Promise.all(started.splice(0).map((thread) => thread.close()));
});

// Opening PGlite takes seconds on a slow machine; one test opens it twice.
describe("PGlite on its own thread, through node-postgres", { timeout: 30_000 }, () => {
  it("answers with node-postgres's types, as the PostgreSQL server does", async () => {
    const { pool } = await start();
    const { rows } = await pool.query(
      "select $1::int + 1 as sum, 12345678901::bigint as big, '\\x0102'::bytea as bytes, timestamptz '2026-11-26 10:00+01' as at",
      [41],
    );
    expect(rows).toEqual([
      {
        sum: 42,
        big: "12345678901",
        bytes: Buffer.from([1, 2]),
        at: new Date("2026-11-26T09:00:00Z"),
      },
    ]);
  });

  it("answers a database error as an error, and the connection goes on serving", async () => {
    const { pool } = await start();
    await expect(pool.query("select * from no_such_table")).rejects.toMatchObject({
      code: "42P01",
    });
    expect((await pool.query("select 1 as one")).rows).toEqual([{ one: 1 }]);
  });

  it("keeps a transaction to itself: a query asked meanwhile waits until it ends", async () => {
    const { pool } = await start();
    await pool.query("create table marks (value int)");
    const client = await pool.connect();
    await client.query("begin");
    await client.query("insert into marks values (1)");
    let seen: number | undefined;
    const outside = pool
      .query("select count(*)::int as n from marks")
      .then((result) => (seen = result.rows[0].n));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(seen).toBeUndefined();
    await client.query("rollback");
    client.release();
    await outside;
    expect(seen).toBe(0);
  });

  it("gives a new connection a clean session: no transaction or prepared statement of the last one", async () => {
    const { pool } = await start();
    const first = await pool.connect();
    await first.query({ name: "answer", text: "select 42 as answer" });
    await first.query("begin");
    // Dropped mid-transaction, as a connection lost with an error would be.
    first.release(true);

    const second = await pool.connect();
    try {
      expect(
        (await second.query("select now() = statement_timestamp() as outside_transaction")).rows,
      ).toEqual([{ outside_transaction: true }]);
      // The same name prepared again: PostgreSQL refuses one that already exists in the session.
      expect((await second.query({ name: "answer", text: "select 42 as answer" })).rows).toEqual([
        { answer: 42 },
      ]);
    } finally {
      second.release();
    }
  });

  it("keeps what it writes in its folder, dumps the folder whole, and starts a copy from the dump", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "pglite-thread-"));
    try {
      const first = await startPgliteThread(dir);
      await first.pool.query("create table notes (body text)");
      await first.pool.query("insert into notes values ('kept')");
      const dump = await first.dump();
      // A gzip stream.
      expect([dump[0], dump[1]]).toEqual([0x1f, 0x8b]);
      await first.close();

      const again = await start(dir);
      expect((await again.pool.query("select body from notes")).rows).toEqual([{ body: "kept" }]);

      // In memory, from the dump unzipped, as each test database starts from the migrated template.
      const copy = await startPgliteThread(undefined, { fromDump: gunzipSync(dump) });
      started.push(copy);
      await copy.pool.query("insert into notes values ('only in the copy')");
      expect((await copy.pool.query("select body from notes order by body")).rows).toEqual([
        { body: "kept" },
        { body: "only in the copy" },
      ]);
      expect((await again.pool.query("select count(*)::int as n from notes")).rows).toEqual([
        { n: 1 },
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("refuses work clearly once its thread has stopped, instead of leaving it waiting", async () => {
    const thread = await start();
    await thread.close();
    await expect(thread.dump()).rejects.toThrow(/database thread stopped/);
  });
});

describe("a database thread that stops without being closed", { timeout: 30_000 }, () => {
  it("tells its owner once, and every query after fails instead of waiting", async () => {
    // The portal's own thread, which ends itself when told "crash" (as PGlite failing would end
    // it): stopping it from outside instead can take the test run down with it (pglite-thread.ts).
    const crashable = `
      const { parentPort, workerData } = require("node:worker_threads");
      parentPort.on("message", (message) => { if (message === "crash") process.exit(1); });
      import(workerData.threadModule);
    `;
    const threadModule = new URL("./pglite-thread-worker.ts", import.meta.url).href;
    const worker = new Worker(crashable, { eval: true, workerData: { threadModule } });
    const lost: Error[] = [];
    const thread = await connectPgliteThread(worker, { onLost: (error) => lost.push(error) });
    started.push(thread);
    expect((await thread.pool.query("select 1 as one")).rows).toEqual([{ one: 1 }]);

    worker.postMessage("crash");
    await vi.waitFor(() => expect(lost).toHaveLength(1));
    expect(lost[0]!.message).toMatch(/database thread stopped/);
    await expect(thread.pool.query("select 1 as one")).rejects.toThrow(/database thread stopped/);
    expect(lost).toHaveLength(1);
  });

  it("is not reported lost when its owner closes it", async () => {
    const lost: Error[] = [];
    const thread = await startPgliteThread(undefined, { onLost: (error) => lost.push(error) });
    await thread.close();
    expect(lost).toEqual([]);
  });

  it("fails to start, with the reason, when PGlite cannot open the folder", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "pglite-thread-"));
    try {
      // A file where the data folder should be.
      const notAFolder = path.join(dir, "data");
      await writeFile(notAFolder, "not a database");
      await expect(startPgliteThread(notAFolder)).rejects.toThrow();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
