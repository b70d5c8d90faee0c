/**
 * The page server's build entry: the Node adapter's own exports (its HTTP `handler`, used when
 * the pages run on their own), plus `renderPage`, which renders from a web `Request` so a process
 * that also runs the proxy serves pages without an HTTP hop to itself (decision 112).
 */
import { createApp } from "astro/app/entrypoint";
import { STYLE_SOURCES } from "../../common/security/content-security-policy.ts";

export { handler, options, startServer } from "@astrojs/node/server.js";

// Whole pages, not streamed: every page reads its data before it renders anything, so streaming
// would only send the same bytes as dozens of small writes (a system call each) instead of one.
const app = createApp({ streaming: false });

// The build lists the digest of every page's inline stylesheet for style-src (about 250), and each
// request copies and quotes them all, but a policy that allows inline styles leaves them out of
// the header (and browsers would ignore 'unsafe-inline' beside them): unused work on every page
// (decision 112). The header stays the same; the built-pages test checks it.
const csp = app.manifest.csp;
if (csp && STYLE_SOURCES.includes("'unsafe-inline'")) {
  csp.styleDirective.hashes = [];
  csp.styleHashes = [];
}

// The caller (the proxy in the same process) writes the request's line; the page's goes at debug.
const handedOver = () => ({ requestLoggedByCaller: true });

/**
 * The page for `request`, or null when no page route matches (a built asset such as
 * /_astro/*.js or /favicon.svg, which the caller serves from dist/client).
 */
export async function renderPage(request: Request): Promise<Response | null> {
  const routeData = app.match(request);
  if (!routeData) return null;
  return app.render(request, { addCookieHeader: true, routeData, locals: handedOver() });
}

/** The not-found page, for an address that is neither a page nor a built asset. */
export function renderNotFound(request: Request): Promise<Response> {
  return app.render(request, { addCookieHeader: true, locals: handedOver() });
}
