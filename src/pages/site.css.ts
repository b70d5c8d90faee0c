import type { APIRoute } from "astro";
import { siteCssCookie } from "../../common/http/site-stylesheet.ts";
import { site } from "../lib/config/site.server.ts";
import { SITE_CSS, SITE_CSS_VERSION } from "../lib/ui/site-stylesheet.server.ts";

/**
 * The site-wide stylesheet as a file the browser keeps (decision 203). The current version is
 * cached for a year, as immutable, and its answer sets the cookie that tells the page server this
 * browser now holds it: only a browser that fetched this version carries that cookie.
 *
 * Any other `v` (a page of the previous build still open, or, while a deploy rolls, a page from a
 * newer process answered by an older one): the CSS this process has, which is the nearest it can
 * give, but neither cached under that address nor with the cookie, since the browser then holds
 * no file of the current version. The next page inlines the CSS and prefetches the current file.
 * A redirect to the current version would do the same in two round trips, and between processes
 * of two builds would redirect back and forth.
 */
export const GET: APIRoute = ({ url }) => {
  const current = url.searchParams.get("v") === SITE_CSS_VERSION;
  const headers = new Headers({
    "content-type": "text/css; charset=utf-8",
    "cache-control": current ? "public, max-age=31536000, immutable" : "no-store",
  });
  if (current)
    headers.set(
      "set-cookie",
      siteCssCookie(SITE_CSS_VERSION, site().PUBLIC_ORIGIN.startsWith("https:")),
    );
  return new Response(SITE_CSS, { headers });
};
