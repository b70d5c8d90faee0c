import { describe, expect, it } from "vitest";
import { PASSPORT_MAX_BYTES } from "../../common/http/body-limits.ts";
import { UploadError, processPassportPhoto } from "./passport-photo.ts";
import { makeImage, makeOneBitPng, withJpegDimensions } from "./images.test-kit.ts";

const WRONG_TYPE = "The passport photo must be a JPEG, PNG or WebP image.";
const TOO_BIG = "The photo is larger than 5 MB. Choose a smaller photo.";
const UNREADABLE = "We could not read that image. Choose another photo.";

async function refusal(bytes: Uint8Array): Promise<UploadError> {
  const error = await processPassportPhoto(bytes).then(
    () => null,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof UploadError)) throw new Error(`Expected an UploadError, got ${error}`);
  return error;
}

const text = (value: string) => Buffer.from(value, "utf8");

describe("processPassportPhoto refuses what is not a JPEG, PNG or WebP (415)", () => {
  it.each([
    { input: "a PHP script", make: async () => text("<?php system($_GET['c']); ?>") },
    { input: "a GIF", make: () => makeImage(200, 200, "gif") },
    {
      input: "an SVG",
      make: async () => text('<svg xmlns="http://www.w3.org/2000/svg" width="200" height="200"/>'),
    },
    { input: "a PDF", make: async () => text("%PDF-1.7\n1 0 obj\n<< /Type /Catalog >>\nendobj\n") },
    { input: "an HTML page", make: async () => text("<!doctype html><script>alert(1)</script>") },
    { input: "a WAV file (RIFF but not WebP)", make: async () => text("RIFF\0\0\0\0WAVEfmt ") },
    { input: "the first two bytes of a JPEG", make: async () => Buffer.from([0xff, 0xd8]) },
    { input: "empty input", make: async () => Buffer.alloc(0) },
  ])("$input", async ({ make }) => {
    const error = await refusal(await make());

    expect(error.status).toBe(415);
    expect(error.message).toBe(WRONG_TYPE);
  });
});

describe("processPassportPhoto refuses files over PASSPORT_MAX_BYTES (413)", () => {
  // A valid JPEG padded with zeros decodes fine, so only the size check can refuse it.
  async function paddedJpeg(totalBytes: number): Promise<Buffer> {
    const jpeg = await makeImage(200, 200, "jpeg");
    return Buffer.concat([jpeg, Buffer.alloc(totalBytes - jpeg.length)]);
  }

  it.each([
    { input: "one byte over the limit", bytes: PASSPORT_MAX_BYTES + 1 },
    { input: "a 20 MB file", bytes: 20 * 1024 * 1024 },
  ])("$input, before decoding it", async ({ bytes }) => {
    const error = await refusal(await paddedJpeg(bytes));

    expect(error.status).toBe(413);
    expect(error.message).toBe(TOO_BIG);
  });

  it("but accepts a file of exactly the limit", async () => {
    const photo = await processPassportPhoto(await paddedJpeg(PASSPORT_MAX_BYTES));

    expect(photo.width).toBe(200);
  });
});

describe("processPassportPhoto refuses image bombs (413) from the header alone", () => {
  it.each([
    { input: "PNG header claiming 50000×50000", make: async () => stubPng(50000, 50000) },
    { input: "valid 20000×20000 1-bit PNG", make: async () => makeOneBitPng(20000, 20000) },
    { input: "valid 8000×6000 1-bit PNG", make: async () => makeOneBitPng(8000, 6000) },
    {
      input: "JPEG header claiming 65000×65000",
      make: async () => withJpegDimensions(await makeImage(200, 200, "jpeg"), 65000, 65000),
    },
  ])("a $input", async ({ make }) => {
    const bytes = await make();
    expect(bytes.length).toBeLessThan(100_000);
    const started = performance.now();

    const error = await refusal(bytes);

    expect(performance.now() - started).toBeLessThan(1000);
    expect(error.status).toBe(413);
    expect(error.message).toMatch(/too large to process\. Choose a photo under 40 megapixels\.$/);
  });

  function stubPng(width: number, height: number): Buffer {
    return makeOneBitPng(width, height, { headerOnly: true });
  }
});

describe("processPassportPhoto refuses unusable images (400)", () => {
  it.each([
    { input: "50×50", size: [50, 50] },
    { input: "99×400", size: [99, 400] },
    { input: "400×99", size: [400, 99] },
  ])("a $input photo as too small", async ({ size: [width, height] }) => {
    const error = await refusal(await makeImage(width, height, "png"));

    expect(error.status).toBe(400);
    expect(error.message).toContain("too small to be a passport photo");
    expect(error.message).toContain(`${width}×${height}`);
  });

  it.each([
    { input: "a truncated JPEG", make: () => truncated(makeImage(800, 800, "jpeg", noisy)) },
    { input: "a truncated PNG", make: () => truncated(makeImage(800, 800, "png", noisy)) },
    { input: "a truncated WebP", make: () => truncated(makeImage(800, 800, "webp", noisy)) },
    {
      input: "a PHP script behind a JPEG signature",
      make: async () => Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), text("<?php ?>")]),
    },
    {
      input: "a WebP header with nothing after it",
      make: async () => text("RIFF\0\0\0\0WEBPVP8 "),
    },
  ])("$input as unreadable", async ({ make }) => {
    const error = await refusal(await make());

    expect(error.status).toBe(400);
    expect(error.message).toBe(UNREADABLE);
  });

  const noisy = { noise: true };
  async function truncated(image: Promise<Buffer>): Promise<Buffer> {
    const bytes = await image;
    return bytes.subarray(0, Math.floor(bytes.length / 2));
  }
});
