/**
 * The header by which the proxy shows the API and the page server that it sent a request, so
 * they believe the client address it passes on in x-forwarded-for (decision 122). Its value is
 * PROXY_SHARED_SECRET. No node: imports: the proxy reads this too, and runs on edge runtimes.
 */
export const PROXY_SECRET_HEADER = "x-portal-proxy";

/** A shared secret shorter than this is refused at start, in every environment. */
export const MIN_PROXY_SECRET_LENGTH = 32;
