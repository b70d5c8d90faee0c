import { randomUUID } from "node:crypto";

const STORED_EXTENSIONS = ["jpg"] as const;

/** File extensions the server stores; the extension is chosen by the server, never the client. */
export type StoredExtension = (typeof STORED_EXTENSIONS)[number];

const CONTENT_TYPES: Record<StoredExtension, string> = { jpg: "image/jpeg" };

/**
 * Passport photos under names the server chooses, kept where every API instance finds them: in
 * the database or in an S3 bucket (decision 128).
 */
export type PhotoStorage = {
  /** Stores bytes under a new random name (crypto.randomUUID() + extension); returns that key. */
  save(bytes: Uint8Array, extension: StoredExtension): Promise<string>;
  /**
   * Returns the bytes, or null when the key is unknown or malformed. Only keys in the server's own
   * naming pattern are looked up, so a crafted key cannot reach anything else in the store.
   */
  read(key: string): Promise<Buffer | null>;
  /** Deletes the photo; an unknown or malformed key is ignored, so removing twice is harmless. */
  remove(key: string): Promise<void>;
  /** Where the photos are kept, for the start-up log; never a secret. */
  readonly description: string;
};

/** Where the bytes live (a table, a bucket). Only ever called with keys in the server's pattern. */
export type PhotoBackend = {
  /** Stores bytes under a key no photo has had before (keys are random v4 UUIDs). */
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  /** The bytes, or null when nothing is stored under the key. */
  get(key: string): Promise<Buffer | null>;
  /** Deletes what is stored under the key; nothing stored is not an error. */
  delete(key: string): Promise<void>;
  readonly description: string;
};

// Lower-case UUID v4 (what randomUUID returns) plus a known extension: "..", slashes, prefixes
// and anything else a client might send never reach a backend.
const UUID_V4 = "[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}";
const KEY_PATTERN = new RegExp(`^${UUID_V4}\\.(${STORED_EXTENSIONS.join("|")})$`);

/** True for a key in the server's own naming pattern. */
export function isPhotoKey(key: string): boolean {
  return KEY_PATTERN.test(key);
}

/** The content type a key's extension stands for; only call with a key `isPhotoKey` accepts. */
export function contentTypeOf(key: string): string {
  return CONTENT_TYPES[key.slice(key.lastIndexOf(".") + 1) as StoredExtension];
}

/** Photo storage on a backend: the server names every photo and checks every key it is given. */
export function createPhotoStorage(backend: PhotoBackend): PhotoStorage {
  return {
    description: backend.description,

    async save(bytes, extension) {
      const key = `${randomUUID()}.${extension}`;
      await backend.put(key, bytes, CONTENT_TYPES[extension]);
      return key;
    },

    async read(key) {
      return isPhotoKey(key) ? backend.get(key) : null;
    },

    async remove(key) {
      if (isPhotoKey(key)) await backend.delete(key);
    },
  };
}
