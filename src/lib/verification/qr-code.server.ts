import { LRUCache } from "lru-cache";
import QRCode from "qrcode";

// A printed check's link is the same on every visit (it is signed, not random), and a student
// opens their results, card or slip several times: drawing the code is most of such a page's
// work (decision 184), so each process keeps the last few thousand it drew (about 2.5 KB each).
const drawn = new LRUCache<string, Promise<string>>({ max: 2_000 });

/** The QR code holding `url`, as inline SVG: no image request and no script on the page. */
export function qrCodeSvg(url: string): Promise<string> {
  let svg = drawn.get(url);
  if (!svg) {
    svg = QRCode.toString(url, { type: "svg", margin: 1, errorCorrectionLevel: "M" });
    drawn.set(url, svg);
    // A code that could not be drawn is not kept: the next visit tries again.
    svg.catch(() => drawn.delete(url));
  }
  return svg;
}
