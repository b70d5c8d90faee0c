import { createHash } from "node:crypto";
import { SITE_CSS_PATH, siteCssVersionHeld } from "../../../common/http/site-stylesheet.ts";
// Processed and minified by the build as the pages' own CSS is, for the same vite.build.cssTarget
// (decision 150), but handed over as a string: Astro leaves it out of every page's <style> block.
import css from "../../styles/global.css?inline";

/** The site-wide CSS (src/styles/global.css), minified: inline on a first page, else linked. */
export const SITE_CSS: string = css;

/** Its version: the start of its SHA-256, computed once per process. A new build's CSS, a new one. */
export const SITE_CSS_VERSION = createHash("sha256").update(css).digest("hex").slice(0, 12);

/** Where the browser fetches this version; answered as immutable (src/pages/site.css.ts). */
export const SITE_CSS_HREF = `${SITE_CSS_PATH}?v=${SITE_CSS_VERSION}`;

/** The request's browser has fetched, and so cached, this very version (its answer set the cookie). */
export function holdsSiteCss(cookieHeader: string | null | undefined): boolean {
  return siteCssVersionHeld(cookieHeader) === SITE_CSS_VERSION;
}
