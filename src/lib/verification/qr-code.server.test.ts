import QRCode from "qrcode";
import { describe, expect, it } from "vitest";
import { qrCodeSvg } from "./qr-code.server.ts";

describe("the QR code of a printed check", () => {
  it("is the code the library draws for the link, the same on a second visit", async () => {
    const url = "https://portal.example/verify/results/cmVzdWx0czo0Mg.AbCdEfGhIjKlMnOpQrStUv";
    const expected = await QRCode.toString(url, {
      type: "svg",
      margin: 1,
      errorCorrectionLevel: "M",
    });
    expect(await qrCodeSvg(url)).toBe(expected);
    expect(await qrCodeSvg(url)).toBe(expected);
  });

  it("differs from one link to another", async () => {
    const one = await qrCodeSvg("https://portal.example/verify/a");
    const other = await qrCodeSvg("https://portal.example/verify/b");
    expect(one).toMatch(/^<svg/);
    expect(other).not.toBe(one);
  });
});
