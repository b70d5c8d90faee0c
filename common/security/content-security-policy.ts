/**
 * The Content-Security-Policy, written once: the page server sends it with the SHA-256 of every
 * script it inlines (astro.config.mjs, `security.csp`); the proxy sends it, with scripts from our
 * own files only, on every response that has none (proxy/security-headers.ts).
 */

/** Everything but scripts and styles: nothing comes from or goes to another host. */
export const POLICY_DIRECTIVES = [
  "default-src 'self'",
  // data: for the default passport image, blob: for the preview of a photo being uploaded.
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'self'",
  "object-src 'none'",
] as const;

/**
 * Styles may be inline: the build inlines each page's CSS (one round trip), and the toaster
 * injects its stylesheet at run time. Injected CSS cannot run script; inline scripts stay out.
 */
export const STYLE_SOURCES = ["'self'", "'unsafe-inline'"] as const;

/** For responses the page server did not write a policy for: scripts from our own files only. */
export const FALLBACK_POLICY = [
  ...POLICY_DIRECTIVES,
  "script-src 'self'",
  `style-src ${STYLE_SOURCES.join(" ")}`,
].join("; ");
