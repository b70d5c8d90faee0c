/**
 * The site-wide stylesheet a browser keeps (decision 203). A first page carries the site's CSS
 * inline and asks the browser to prefetch it from SITE_CSS_PATH when idle; that answer is cached
 * for a year and sets SITE_CSS_COOKIE to its version, so later pages link to it instead of
 * carrying it. Here: what the page server, the proxy's line and the load tool all need to know.
 */
export const SITE_CSS_PATH = "/site.css";
export const SITE_CSS_COOKIE = "site_css";
/** A month: a browser that kept the file longer links to it; one that lost it loads it once. */
export const SITE_CSS_COOKIE_MAX_AGE_SECONDS = 30 * 24 * 60 * 60;

/** The version of the site stylesheet the Cookie header says the browser holds, or null. */
export function siteCssVersionHeld(cookieHeader: string | null | undefined): string | null {
  for (const part of (cookieHeader ?? "").split(";")) {
    const equals = part.indexOf("=");
    if (equals > 0 && part.slice(0, equals).trim() === SITE_CSS_COOKIE)
      return part.slice(equals + 1).trim() || null;
  }
  return null;
}

/** The Set-Cookie header of the stylesheet's answer: this browser now holds `version`. */
export function siteCssCookie(version: string, secure: boolean): string {
  return (
    `${SITE_CSS_COOKIE}=${version}; Path=/; Max-Age=${SITE_CSS_COOKIE_MAX_AGE_SECONDS}; ` +
    `HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`
  );
}
