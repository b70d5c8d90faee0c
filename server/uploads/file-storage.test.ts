import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createFileStorage } from "./file-storage.ts";
import type { FileStorage } from "./file-storage.ts";

const UUID_JPG = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}\.jpg$/;

let root: string;
let dir: string;
let storage: FileStorage;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "file-storage-"));
  // A directory that does not exist yet, one level down, so "../" from it stays inside `root`.
  dir = join(root, "photos");
  storage = createFileStorage(dir);
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("createFileStorage", () => {
  it("saves under a new random key and reads the same bytes back", async () => {
    const bytes = new Uint8Array([0xff, 0xd8, 0xff, 1, 2, 3]);

    const key = await storage.save(bytes, "jpg");

    expect(key).toMatch(UUID_JPG);
    expect(await readdir(dir)).toEqual([key]);
    expect(await storage.read(key)).toEqual(Buffer.from(bytes));
  });

  it("never reuses a key", async () => {
    const first = await storage.save(new Uint8Array([1]), "jpg");
    const second = await storage.save(new Uint8Array([2]), "jpg");

    expect(first).not.toBe(second);
    expect(await storage.read(first)).toEqual(Buffer.from([1]));
  });

  it("returns null for a well-formed key that was never saved", async () => {
    await storage.save(new Uint8Array([1]), "jpg");

    expect(await storage.read("0b7c1b8e-3f1a-4c2d-9e8f-123456789abc.jpg")).toBeNull();
  });

  it("returns null before anything is saved, when the directory does not exist yet", async () => {
    expect(await storage.read("0b7c1b8e-3f1a-4c2d-9e8f-123456789abc.jpg")).toBeNull();
  });

  describe("never reads outside its directory", () => {
    beforeEach(async () => {
      await storage.save(new Uint8Array([1]), "jpg");
      await writeFile(join(root, "secret.jpg"), "not yours");
    });

    it.each([
      "../secret.jpg",
      "../../etc/passwd",
      "/etc/passwd",
      "abc",
      "",
      "0B7C1B8E-3F1A-4C2D-9E8F-123456789ABC.jpg",
      "0b7c1b8e-3f1a-4c2d-9e8f-123456789abc.php",
      "0b7c1b8e-3f1a-4c2d-9e8f-123456789abc.jpg\n",
      "0b7c1b8e-3f1a-4c2d-9e8f-123456789abc.jpg/../../secret.jpg",
    ])("read(%j) is null", async (key) => {
      expect(await storage.read(key)).toBeNull();
    });

    it("does read a planted file at a valid key, so the refusals above are by name", async () => {
      const key = "0b7c1b8e-3f1a-4c2d-9e8f-123456789abc.jpg";
      await writeFile(join(dir, key), "planted");

      expect(await storage.read(key)).toEqual(Buffer.from("planted"));
    });
  });

  it("removes a saved file", async () => {
    const key = await storage.save(new Uint8Array([1]), "jpg");

    await storage.remove(key);

    expect(await storage.read(key)).toBeNull();
    expect(await readdir(dir)).toEqual([]);
  });

  it("ignores removing an unknown key, and never removes outside its directory", async () => {
    await storage.save(new Uint8Array([1]), "jpg");
    await writeFile(join(root, "secret.jpg"), "not yours");

    await storage.remove("0b7c1b8e-3f1a-4c2d-9e8f-123456789abc.jpg");
    await storage.remove("../secret.jpg");

    expect((await readdir(root)).sort()).toEqual(["photos", "secret.jpg"]);
    expect(await readdir(dir)).toHaveLength(1);
  });
});
