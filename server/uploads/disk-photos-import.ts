import { readdir, readFile, rename } from "node:fs/promises";
import path from "node:path";
import type { Logger } from "../http/logger.ts";
import { contentTypeOf, isPhotoKey, type PhotoBackend } from "./photo-storage.ts";

/** Where photos were kept on disk before decision 128, under DATA_DIR. */
export function diskPhotosDir(dataDir: string): string {
  return path.join(dataDir, "uploads", "photos");
}

/**
 * Copies the photos an earlier version kept on this machine's disk into the shared store, once:
 * each file the store lacks is put under its own name (the key `students.photo` holds), then the
 * folder is renamed `photos.imported-<time>` so later starts skip it. The files stay there as a
 * copy until the operator deletes them. Interrupted part-way, it is simply run again: a key the
 * store has is skipped. Answers how many photos were copied.
 */
export async function importDiskPhotos(
  dir: string,
  backend: PhotoBackend,
  logger: Logger,
  now = () => new Date(),
): Promise<number> {
  const names = await readdir(dir).catch((error: unknown) => {
    if (error instanceof Error && "code" in error && error.code === "ENOENT") return [];
    throw error;
  });
  if (names.length === 0) return 0;
  let copied = 0;
  const ignored: string[] = [];
  for (const name of names) {
    // Only names the server chose: anything else was never a student's photo.
    if (!isPhotoKey(name)) {
      ignored.push(name);
      continue;
    }
    if (await backend.get(name)) continue;
    await backend.put(name, await readFile(path.join(dir, name)), contentTypeOf(name));
    copied++;
  }
  const keptIn = `${dir}.imported-${now().toISOString().replaceAll(":", "-")}`;
  await rename(dir, keptIn);
  logger.info("passport photos copied from disk", {
    copied,
    store: backend.description,
    keptIn,
    ignored,
  });
  return copied;
}
