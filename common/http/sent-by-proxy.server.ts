import { hash, timingSafeEqual } from "node:crypto";
import { PROXY_SECRET_HEADER } from "./proxy-secret.ts";

/**
 * Whether a request carries our proxy's shared secret (decision 122). Server-only: the API and
 * the page server ask it before they believe an x-forwarded-for. Both sides are hashed first so
 * the comparison takes the same time whatever the guess's length or how much of it is right.
 */
export function sentByProxy(headers: Headers, proxySecret: string | undefined): boolean {
  const given = headers.get(PROXY_SECRET_HEADER);
  if (!proxySecret || given === null) return false;
  return timingSafeEqual(sha256(given), secretDigest(proxySecret));
}

// The one-shot hash: a page asks up to six times per request, and a Hash object each time showed.
const sha256 = (value: string) => hash("sha256", value, "buffer");

// Every request asks two or three times, always about the same secret: its side is hashed once.
const secretDigests = new Map<string, Buffer>();
function secretDigest(secret: string) {
  let digest = secretDigests.get(secret);
  if (!digest) {
    digest = sha256(secret);
    secretDigests.set(secret, digest);
  }
  return digest;
}
