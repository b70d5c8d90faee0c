import { eq } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { storedFiles } from "../db/schema.ts";
import type { PhotoBackend } from "./photo-storage.ts";

/** Photos as rows of `stored_files`, the default (decision 128): nothing to set up, backed up with the rest. */
export function databasePhotoBackend(db: Database): PhotoBackend {
  return {
    description: "database (stored_files)",

    async put(key, bytes, contentType) {
      // A plain insert: should a key ever be taken, the primary key refuses instead of overwriting.
      await db
        .insert(storedFiles)
        .values({ key, contentType, bytes: Buffer.from(bytes), size: bytes.byteLength });
    },

    async get(key) {
      const [row] = await db
        .select({ bytes: storedFiles.bytes })
        .from(storedFiles)
        .where(eq(storedFiles.key, key));
      return row?.bytes ?? null;
    },

    async delete(key) {
      await db.delete(storedFiles).where(eq(storedFiles.key, key));
    },
  };
}
