import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../db/client.ts";
import { storedFiles } from "../db/schema.ts";
import { createMemoryLogger } from "../http/logger.ts";
import { openTestDatabase } from "../testing/test-database.test-kit.ts";
import { databasePhotoBackend } from "./database-photos.ts";
import { diskPhotosDir, importDiskPhotos } from "./disk-photos-import.ts";

const OLD = "0b7c1b8e-3f1a-4c2d-9e8f-123456789abc.jpg";
const NEWER = "1c7c1b8e-3f1a-4c2d-9e8f-123456789abc.jpg";
const ALREADY_COPIED = "2d7c1b8e-3f1a-4c2d-9e8f-123456789abc.jpg";
const AT = new Date("2026-11-23T18:00:00Z");

let database: DatabaseHandle;
let dataDir: string;

beforeAll(async () => {
  database = await openTestDatabase();
  dataDir = await mkdtemp(path.join(tmpdir(), "portal-disk-photos-"));
});
afterAll(async () => {
  try {
    await database?.close();
  } finally {
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  }
});

describe("importDiskPhotos", () => {
  it("does nothing when there is no photo folder, as on any portal started after decision 128", async () => {
    const logger = createMemoryLogger();

    expect(
      await importDiskPhotos(diskPhotosDir(dataDir), databasePhotoBackend(database.db), logger),
    ).toBe(0);
    expect(logger.lines).toEqual([]);
  });

  it("copies each photo the store lacks under its own name, then sets the folder aside", async () => {
    const dir = diskPhotosDir(dataDir);
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, OLD), "old photo");
    await writeFile(path.join(dir, NEWER), "newer photo");
    await writeFile(path.join(dir, ALREADY_COPIED), "the disk's copy");
    await writeFile(path.join(dir, "notes.txt"), "not a photo");
    const backend = databasePhotoBackend(database.db);
    // Copied by an earlier start that stopped part-way: the store's bytes are kept.
    await backend.put(ALREADY_COPIED, Buffer.from("the store's copy"), "image/jpeg");
    const logger = createMemoryLogger();

    const copied = await importDiskPhotos(dir, backend, logger, () => AT);

    expect(copied).toBe(2);
    expect((await backend.get(OLD))!.toString()).toBe("old photo");
    expect((await backend.get(NEWER))!.toString()).toBe("newer photo");
    expect((await backend.get(ALREADY_COPIED))!.toString()).toBe("the store's copy");
    const rows = await database.db
      .select({ key: storedFiles.key, contentType: storedFiles.contentType })
      .from(storedFiles);
    expect(rows).toHaveLength(3);
    expect(rows.every((row) => row.contentType === "image/jpeg")).toBe(true);

    const keptIn = `${dir}.imported-2026-11-23T18-00-00.000Z`;
    expect((await readdir(path.join(dataDir, "uploads"))).sort()).toEqual([path.basename(keptIn)]);
    expect((await readdir(keptIn)).sort()).toEqual(
      [OLD, NEWER, ALREADY_COPIED, "notes.txt"].sort(),
    );
    expect(await readFile(path.join(keptIn, OLD), "utf8")).toBe("old photo");
    expect(logger.lines.map((line) => JSON.parse(line))).toEqual([
      {
        level: "info",
        message: "passport photos copied from disk",
        copied: 2,
        store: "database (stored_files)",
        keptIn,
        ignored: ["notes.txt"],
      },
    ]);
  });

  it("finds nothing to do on the next start", async () => {
    const logger = createMemoryLogger();

    expect(
      await importDiskPhotos(diskPhotosDir(dataDir), databasePhotoBackend(database.db), logger),
    ).toBe(0);
    expect(logger.lines).toEqual([]);
  });
});
