import sharp from "sharp";
import type { PhotoStorage } from "../uploads/photo-storage.ts";

// Twice the 110 px the slip shows, so it prints sharply; about 10 KB.
const WIDTH = 220;
const HEIGHT = 264;

/**
 * The passport photo as a small JPEG data URI, so the slip's HTML carries it: the slip paints
 * in one round trip on slow connections and prints without waiting for another request.
 */
export async function slipPhoto(photos: PhotoStorage, key: string | null): Promise<string | null> {
  if (!key) return null;
  const bytes = await photos.read(key);
  if (!bytes) return null;
  const thumbnail = await sharp(bytes)
    .resize(WIDTH, HEIGHT, { fit: "cover" })
    .jpeg({ quality: 70, mozjpeg: true })
    .toBuffer();
  return `data:image/jpeg;base64,${thumbnail.toString("base64")}`;
}
