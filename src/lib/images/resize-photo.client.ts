/** The longest side of a passport photo worth sending; the server stores no more than this. */
export const PHOTO_MAX_SIDE = 600;

/** Image types the portal accepts, as the file input's `accept` lists them. */
export const PHOTO_TYPES = ["image/jpeg", "image/png", "image/webp"] as const;

/** A photo the browser could not use; `message` tells the student what to do. */
export class PhotoNotUsable extends Error {}

/** A photo made ready to send: a JPEG no larger than PHOTO_MAX_SIDE on either side. */
export type ResizedPhoto = { blob: Blob; width: number; height: number };

const QUALITY = 0.85;

/**
 * Shrinks a chosen photo in the browser before upload, so a 5 MB camera photo crosses a slow
 * connection as ~60 KB: decodes it (turned upright from its EXIF orientation), scales it to fit
 * within `maxSide` (never enlarging), puts transparency on white and re-encodes it as JPEG.
 * Re-encoding also leaves EXIF data such as the GPS position behind.
 *
 * @throws PhotoNotUsable when the file is not a JPEG, PNG or WebP the browser can decode.
 */
export async function resizePhoto(file: Blob, maxSide = PHOTO_MAX_SIDE): Promise<ResizedPhoto> {
  if (!(PHOTO_TYPES as readonly string[]).includes(file.type)) {
    throw new PhotoNotUsable("Choose a JPEG, PNG or WebP photo.");
  }
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file, { imageOrientation: "from-image" });
  } catch {
    throw new PhotoNotUsable("We could not read that image. Choose another photo.");
  }
  try {
    const scale = Math.min(1, maxSide / Math.max(bitmap.width, bitmap.height));
    const width = Math.max(1, Math.round(bitmap.width * scale));
    const height = Math.max(1, Math.round(bitmap.height * scale));
    const canvas = document.createElement("canvas");
    canvas.width = width;
    canvas.height = height;
    const context = canvas.getContext("2d");
    if (!context)
      throw new PhotoNotUsable("This browser cannot prepare photos. Try another browser.");
    context.fillStyle = "#ffffff";
    context.fillRect(0, 0, width, height);
    context.imageSmoothingQuality = "high";
    context.drawImage(bitmap, 0, 0, width, height);
    const blob = await new Promise<Blob | null>((done) =>
      canvas.toBlob(done, "image/jpeg", QUALITY),
    );
    if (!blob) throw new PhotoNotUsable("We could not prepare that photo. Choose another photo.");
    return { blob, width, height };
  } finally {
    bitmap.close();
  }
}
