import type { MiddlewareHandler } from "hono";
import { refuse } from "./refusal.ts";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Refuses state-changing requests that a browser sent from another site (CSRF). Browsers send
 * Origin on every POST/PATCH/DELETE; Sec-Fetch-Site covers the rest. Requests with neither
 * (servers such as Paystack's webhook) carry no cookie-borne authority and pass.
 * A page sent with `Referrer-Policy: no-referrer` (the password reset page, whose address holds
 * a token) posts its forms with `Origin: null`; then only Sec-Fetch-Site, which no page can set,
 * may vouch that the form is ours.
 */
export function sameOriginOnly(allowedOrigins: string[]): MiddlewareHandler {
  const allowed = new Set(allowedOrigins.map((origin) => new URL(origin).origin));
  return async (c, next) => {
    if (SAFE_METHODS.has(c.req.method)) return next();
    const origin = c.req.header("origin");
    const site = c.req.header("sec-fetch-site");
    let crossSite: boolean;
    if (origin === "null") crossSite = site !== "same-origin";
    // Compared with the public origin, never the request's own address: behind a TLS-terminating
    // front proxy the request arrives as http://, and an http:// page (on a network that strips
    // TLS) must not pass for the https:// portal.
    else if (origin) crossSite = !allowed.has(origin);
    else crossSite = site !== undefined && site !== "same-origin" && site !== "none";
    if (crossSite) return refuse(c, 403, "This request came from another website and was refused.");
    return next();
  };
}
