import { beforeEach, describe, expect, it } from "vitest";
import {
  createPhotoStorage,
  isPhotoKey,
  type PhotoBackend,
  type PhotoStorage,
} from "./photo-storage.ts";

const UUID_JPG = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}\.jpg$/;
const VALID_KEY = "0b7c1b8e-3f1a-4c2d-9e8f-123456789abc.jpg";

// The rules under test are the storage's own (naming, key checks); the real backends are
// exercised in photo-storage.api.test.ts. This one records what reaches it.
function recordingBackend() {
  const objects = new Map<string, { bytes: Buffer; contentType: string }>();
  const calls: string[] = [];
  const backend: PhotoBackend = {
    description: "memory",
    async put(key, bytes, contentType) {
      calls.push(`put ${key}`);
      objects.set(key, { bytes: Buffer.from(bytes), contentType });
    },
    async get(key) {
      calls.push(`get ${key}`);
      return objects.get(key)?.bytes ?? null;
    },
    async delete(key) {
      calls.push(`delete ${key}`);
      objects.delete(key);
    },
  };
  return { backend, objects, calls };
}

let store: ReturnType<typeof recordingBackend>;
let storage: PhotoStorage;

beforeEach(() => {
  store = recordingBackend();
  storage = createPhotoStorage(store.backend);
});

describe("createPhotoStorage", () => {
  it("saves under a new random key with the extension's content type, and reads the same bytes back", async () => {
    const bytes = new Uint8Array([0xff, 0xd8, 0xff, 1, 2, 3]);

    const key = await storage.save(bytes, "jpg");

    expect(key).toMatch(UUID_JPG);
    expect([...store.objects.keys()]).toEqual([key]);
    expect(store.objects.get(key)!.contentType).toBe("image/jpeg");
    expect(await storage.read(key)).toEqual(Buffer.from(bytes));
  });

  it("never reuses a key", async () => {
    const first = await storage.save(new Uint8Array([1]), "jpg");
    const second = await storage.save(new Uint8Array([2]), "jpg");

    expect(first).not.toBe(second);
    expect(await storage.read(first)).toEqual(Buffer.from([1]));
  });

  it("returns null for a well-formed key that was never saved", async () => {
    expect(await storage.read(VALID_KEY)).toBeNull();
  });

  describe("passes the backend only keys in its own pattern", () => {
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
      "passport-photos/0b7c1b8e-3f1a-4c2d-9e8f-123456789abc.jpg",
      "0b7c1b8e-3f1a-1c2d-9e8f-123456789abc.jpg",
    ])("read(%j) and remove(%j) never reach it", async (key) => {
      store.objects.set(key, { bytes: Buffer.from("planted"), contentType: "image/jpeg" });

      expect(isPhotoKey(key)).toBe(false);
      expect(await storage.read(key)).toBeNull();
      await storage.remove(key);
      expect(store.calls).toEqual([]);
      expect(store.objects.has(key)).toBe(true);
    });

    it("does read an object planted at a valid key, so the refusals above are by name", async () => {
      store.objects.set(VALID_KEY, { bytes: Buffer.from("planted"), contentType: "image/jpeg" });

      expect(await storage.read(VALID_KEY)).toEqual(Buffer.from("planted"));
    });
  });

  it("removes a saved photo, and removing it again is harmless", async () => {
    const key = await storage.save(new Uint8Array([1]), "jpg");

    await storage.remove(key);
    await storage.remove(key);

    expect(await storage.read(key)).toBeNull();
    expect(store.objects.size).toBe(0);
  });
});
