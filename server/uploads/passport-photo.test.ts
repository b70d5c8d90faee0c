import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { processPassportPhoto } from "./passport-photo.ts";
import { makeImage, makeOneBitPng, makeTransparentPng } from "./images.test-kit.ts";

describe("processPassportPhoto accepts", () => {
  it.each([
    { input: "3000×4000 JPEG", make: () => makeImage(3000, 4000, "jpeg"), size: [450, 600] },
    { input: "4000×3000 JPEG", make: () => makeImage(4000, 3000, "jpeg"), size: [600, 450] },
    { input: "1200×800 PNG", make: () => makeImage(1200, 800, "png"), size: [600, 400] },
    { input: "800×1200 WebP", make: () => makeImage(800, 1200, "webp"), size: [400, 600] },
    { input: "300×200 PNG", make: () => makeImage(300, 200, "png"), size: [300, 200] },
    { input: "100×100 WebP", make: () => makeImage(100, 100, "webp"), size: [100, 100] },
    { input: "6000×6000 1-bit PNG", make: async () => makeOneBitPng(6000, 6000), size: [600, 600] },
  ])("a $input, re-encoded as a $size.0×$size.1 JPEG", async ({ make, size }) => {
    const photo = await processPassportPhoto(await make());

    const metadata = await sharp(photo.bytes).metadata();
    expect(metadata.format).toBe("jpeg");
    expect(photo.contentType).toBe("image/jpeg");
    expect([photo.width, photo.height]).toEqual(size);
    expect([metadata.width, metadata.height]).toEqual(size);
  });

  it("accepts a plain Uint8Array, not only a Buffer", async () => {
    const png = await makeImage(200, 200, "png");

    const photo = await processPassportPhoto(new Uint8Array(png));

    expect(photo.width).toBe(200);
  });
});

describe("processPassportPhoto cleans", () => {
  it("drops EXIF, including the GPS position and any text hidden in it", async () => {
    const input = await makeImage(800, 600, "jpeg", {
      exif: {
        IFD0: { ImageDescription: "<?php system($_GET['c']); ?>" },
        IFD3: {
          GPSLatitudeRef: "N",
          GPSLatitude: "6/1 27/1 1500/100",
          GPSLongitudeRef: "E",
          GPSLongitude: "3/1 23/1 4200/100",
        },
      },
    });
    const before = await sharp(input).metadata();
    expect(before.exif?.includes("<?php")).toBe(true);
    // Tag 0x8825 (pointer to the GPS directory), type LONG, in libvips' little-endian order.
    expect(before.exif?.includes(Buffer.from([0x25, 0x88, 0x04, 0x00]))).toBe(true);

    const photo = await processPassportPhoto(input);

    const after = await sharp(photo.bytes).metadata();
    expect(after.exif).toBeUndefined();
    expect(after.xmp).toBeUndefined();
    expect(after.iptc).toBeUndefined();
    expect(photo.bytes.includes("<?php")).toBe(false);
  });

  it("turns the photo upright using its EXIF orientation", async () => {
    // Orientation 6 means "rotate 90° clockwise to display", so 400×200 stored is 200×400 seen.
    const input = await makeImage(400, 200, "jpeg", { orientation: 6 });

    const photo = await processPassportPhoto(input);

    expect([photo.width, photo.height]).toEqual([200, 400]);
    expect((await sharp(photo.bytes).metadata()).orientation).toBeUndefined();
  });

  it("puts a transparent background on white, not black", async () => {
    const photo = await processPassportPhoto(await makeTransparentPng(200, 200));

    const { data } = await sharp(photo.bytes).raw().toBuffer({ resolveWithObject: true });
    expect(Math.min(...data)).toBeGreaterThan(245);
  });
});
