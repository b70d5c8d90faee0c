import { crc32, deflateSync } from "node:zlib";
import sharp from "sharp";
import type { Exif } from "sharp";

// Fixtures are made on the fly so that no binary files are committed.

type Format = "jpeg" | "png" | "webp" | "gif";

/** A plain image of the given size and format; `noise` makes it hard to compress. */
export async function makeImage(
  width: number,
  height: number,
  format: Format,
  options: { noise?: boolean; exif?: Exif; orientation?: number } = {},
): Promise<Buffer> {
  let image = sharp({
    create: {
      width,
      height,
      channels: 3,
      background: "#4a7a9c",
      ...(options.noise ? { noise: { type: "gaussian", mean: 128, sigma: 60 } } : {}),
    },
  }).toFormat(format);
  if (options.exif) image = image.withExif(options.exif);
  if (options.orientation) image = image.withMetadata({ orientation: options.orientation });
  return image.toBuffer();
}

/** A PNG whose pixels are all transparent. */
export function makeTransparentPng(width: number, height: number): Promise<Buffer> {
  return sharp({
    create: { width, height, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
  })
    .png()
    .toBuffer();
}

/**
 * A hand-built 1-bit greyscale PNG: huge dimensions cost almost nothing on disk.
 * With `headerOnly` the image data is a stub, as in a bomb that only needs its header read.
 */
export function makeOneBitPng(
  width: number,
  height: number,
  { headerOnly = false }: { headerOnly?: boolean } = {},
): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([1, 0, 0, 0, 0], 8); // bit depth 1, greyscale, deflate, no filter, no interlace
  const rowBytes = 1 + Math.ceil(width / 8); // filter byte + packed pixels
  const pixels = headerOnly ? Buffer.alloc(1) : Buffer.alloc(rowBytes * height);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk("IHDR", header),
    pngChunk("IDAT", deflateSync(pixels, { level: 9 })),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typeAndData = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typeAndData));
  return Buffer.concat([length, typeAndData, crc]);
}

/** Rewrites the size in a JPEG's frame header, as a bomb would, leaving the data as it was. */
export function withJpegDimensions(jpeg: Buffer, width: number, height: number): Buffer {
  const copy = Buffer.from(jpeg);
  // Walk the marker segments after the start-of-image marker until the baseline frame header.
  let offset = 2;
  while (copy[offset] === 0xff && copy[offset + 1] !== 0xc0) {
    offset += 2 + copy.readUInt16BE(offset + 2);
  }
  if (copy[offset + 1] !== 0xc0) throw new Error("No baseline frame header in this JPEG");
  copy.writeUInt16BE(height, offset + 5); // after marker (2), length (2) and precision (1)
  copy.writeUInt16BE(width, offset + 7);
  return copy;
}
