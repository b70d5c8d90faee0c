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
  // A page asks several times about one request (its log line, the client's address, the API's
  // calls). The answer is kept with the request's headers, beside the value it was given for,
  // which is compared only with itself, never with the secret.
  const known = verdicts.get(headers);
  if (known && known.given === given && known.proxySecret === proxySecret) return known.verdict;
  const verdict = timingSafeEqual(sha256(given), secretDigest(proxySecret));
  verdicts.set(headers, { given, proxySecret, verdict });
  return verdict;
}

const verdicts = new WeakMap<Headers, { given: string; proxySecret: string; verdict: boolean }>();

// The one-shot hash: a Hash object each time showed in profiles.
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
