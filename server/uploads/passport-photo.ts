import sharp from "sharp";
import type { Metadata, Sharp } from "sharp";
import { PASSPORT_MAX_BYTES } from "../../common/http/body-limits.ts";

/** Most pixels accepted (width × height), so a small file cannot decode into gigabytes. */
export const PASSPORT_MAX_INPUT_PIXELS = 40_000_000;

/** Shortest side accepted, in pixels; anything smaller cannot show a face clearly. */
export const PASSPORT_MIN_SIDE = 100;

/** The stored photo fits within this many pixels on each side. */
export const PASSPORT_OUTPUT_SIDE = 600;

/** Status codes an upload can be refused with. */
export type UploadStatus = 400 | 413 | 415;

/** An upload refused for a reason the student can fix; `message` says what to do. */
export class UploadError extends Error {
  readonly status: UploadStatus;

  constructor(status: UploadStatus, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "UploadError";
    this.status = status;
  }
}

/** A checked, re-encoded passport photo ready to store. */
export type PassportPhoto = {
  bytes: Buffer;
  contentType: "image/jpeg";
  width: number;
  height: number;
};

type AcceptedFormat = "jpeg" | "png" | "webp";

const UNREADABLE = "We could not read that image. Choose another photo.";
const DECODE_TIMEOUT_SECONDS = 10;

/**
 * Checks an uploaded passport photo and re-encodes it as a JPEG within 600×600 pixels.
 *
 * The type is decided by the bytes themselves (JPEG, PNG or WebP signatures), never by a file
 * name or a claimed MIME type. EXIF orientation is applied, the image is shrunk (never enlarged),
 * transparency becomes white, and the output carries no metadata (no EXIF, GPS position, XMP or
 * comments), so nothing from the original file but its pixels is kept.
 *
 * @throws UploadError 413 when the file is over PASSPORT_MAX_BYTES or the image has more than
 *   PASSPORT_MAX_INPUT_PIXELS pixels; 415 when it is not a JPEG, PNG or WebP image; 400 when it
 *   is smaller than PASSPORT_MIN_SIDE on a side, or corrupt or truncated.
 */
export async function processPassportPhoto(bytes: Uint8Array): Promise<PassportPhoto> {
  if (bytes.byteLength > PASSPORT_MAX_BYTES) {
    throw new UploadError(413, "The photo is larger than 5 MB. Choose a smaller photo.");
  }
  const format = detectFormat(bytes);
  if (format === null) {
    throw new UploadError(415, "The passport photo must be a JPEG, PNG or WebP image.");
  }

  const { width, height } = await readDimensions(bytes, format);
  if (width * height > PASSPORT_MAX_INPUT_PIXELS) {
    throw new UploadError(
      413,
      `The photo is ${width}×${height} pixels, which is too large to process. ` +
        `Choose a photo under ${PASSPORT_MAX_INPUT_PIXELS / 1_000_000} megapixels.`,
    );
  }
  if (Math.min(width, height) < PASSPORT_MIN_SIDE) {
    throw new UploadError(
      400,
      `The photo is ${width}×${height} pixels, which is too small to be a passport photo. ` +
        `Choose a photo at least ${PASSPORT_MIN_SIDE}×${PASSPORT_MIN_SIDE} pixels.`,
    );
  }

  try {
    const { data, info } = await openImage(bytes)
      .resize(PASSPORT_OUTPUT_SIDE, PASSPORT_OUTPUT_SIDE, {
        fit: "inside",
        withoutEnlargement: true,
      })
      .flatten({ background: "#ffffff" })
      .jpeg({ quality: 82, mozjpeg: true })
      .timeout({ seconds: DECODE_TIMEOUT_SECONDS })
      .toBuffer({ resolveWithObject: true });
    return { bytes: data, contentType: "image/jpeg", width: info.width, height: info.height };
  } catch (cause) {
    // Kept as the cause so the error handler can log what libvips actually said.
    throw new UploadError(400, UNREADABLE, { cause });
  }
}

/** Reads only the header, so the size checks run before any pixel is decoded. */
async function readDimensions(
  bytes: Uint8Array,
  expected: AcceptedFormat,
): Promise<{ width: number; height: number }> {
  let metadata: Metadata;
  try {
    // Only the header is read; the caller checks the pixel limit and gives a clearer message.
    metadata = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch (cause) {
    throw new UploadError(400, UNREADABLE, { cause });
  }
  // The signature check chose the format; make sure libvips agrees before its decoder runs.
  if (metadata.format !== expected || !metadata.width || !metadata.height) {
    throw new UploadError(400, UNREADABLE);
  }
  return { width: metadata.width, height: metadata.height };
}

function openImage(bytes: Uint8Array): Sharp {
  return sharp(bytes, {
    autoOrient: true,
    // Checked against the header already; libvips enforces it again while decoding.
    limitInputPixels: PASSPORT_MAX_INPUT_PIXELS,
    // Stop on truncated or corrupt pixel data instead of storing a half-grey photo.
    failOn: "truncated",
  });
}

function detectFormat(bytes: Uint8Array): AcceptedFormat | null {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return "jpeg";
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "png";
  if (startsWith(bytes, ascii("RIFF")) && startsWith(bytes.subarray(8), ascii("WEBP"))) {
    return "webp";
  }
  return null;
}

function startsWith(bytes: Uint8Array, prefix: readonly number[]): boolean {
  return bytes.length >= prefix.length && prefix.every((byte, i) => bytes[i] === byte);
}

function ascii(text: string): number[] {
  return Array.from(text, (char) => char.charCodeAt(0));
}
