import { randomUUID } from "node:crypto";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";

const STORED_EXTENSIONS = ["jpg"] as const;

/** File extensions the server stores; the extension is chosen by the server, never the client. */
export type StoredExtension = (typeof STORED_EXTENSIONS)[number];

/** Files kept on disk under names the server chooses. */
export type FileStorage = {
  /** Stores bytes under a new random name (crypto.randomUUID() + extension); returns that key. */
  save(bytes: Uint8Array, extension: StoredExtension): Promise<string>;
  /**
   * Returns the bytes, or null when the key is unknown or malformed. Only keys in the server's own
   * naming pattern are looked up, so nothing outside the storage directory can be read.
   */
  read(key: string): Promise<Buffer | null>;
  /** Deletes the file; an unknown or malformed key is ignored, so removing twice is harmless. */
  remove(key: string): Promise<void>;
};

// Lower-case UUID v4 (what randomUUID returns) plus a known extension; nothing else can name a
// file, so "..", slashes and absolute paths never reach the file system.
const UUID_V4 = "[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}";
const KEY_PATTERN = new RegExp(`^${UUID_V4}\\.(${STORED_EXTENSIONS.join("|")})$`);

/** Creates a storage in `dir`, which is created on the first save. */
export function createFileStorage(dir: string): FileStorage {
  return {
    async save(bytes, extension) {
      await mkdir(dir, { recursive: true });
      const key = `${randomUUID()}.${extension}`;
      // "wx" refuses to overwrite, so a key can never point at another student's file.
      await writeFile(join(dir, key), bytes, { flag: "wx", mode: 0o640 });
      return key;
    },

    async read(key) {
      if (!isStorageKey(key)) return null;
      try {
        return await readFile(join(dir, key));
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    },

    async remove(key) {
      if (!isStorageKey(key)) return;
      await rm(join(dir, key), { force: true });
    },
  };
}

function isStorageKey(key: string): boolean {
  return KEY_PATTERN.test(key);
}

function isNotFound(error: unknown): boolean {
  return error instanceof Error && "code" in error && error.code === "ENOENT";
}
