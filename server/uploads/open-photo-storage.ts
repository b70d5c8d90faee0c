import type { Database } from "../db/client.ts";
import { databasePhotoBackend } from "./database-photos.ts";
import { createPhotoStorage, type PhotoBackend, type PhotoStorage } from "./photo-storage.ts";
import type { S3Settings } from "./s3-photos.ts";

/** Where photos go, as configured: the database unless S3 settings are given (decision 128). */
export async function photoBackendFor(options: {
  db: Database;
  s3?: S3Settings;
}): Promise<PhotoBackend> {
  if (!options.s3) return databasePhotoBackend(options.db);
  // The AWS SDK is loaded only by a portal that uses it.
  const { s3PhotoBackend } = await import("./s3-photos.ts");
  return s3PhotoBackend(options.s3);
}

/** The photo storage every API instance of this deployment shares. */
export async function openPhotoStorage(options: {
  db: Database;
  s3?: S3Settings;
}): Promise<PhotoStorage> {
  return createPhotoStorage(await photoBackendFor(options));
}
