import { createHmac, timingSafeEqual } from "node:crypto";

const HEX_SHA512 = /^[0-9a-f]{128}$/i;

/**
 * The value Paystack sends in `x-paystack-signature`: the hex HMAC-SHA512 of the exact raw
 * request body, keyed with the secret key.
 */
export function signPaystackPayload(rawBody: string, secretKey: string): string {
  return createHmac("sha512", secretKey).update(rawBody, "utf8").digest("hex");
}

/**
 * True only when `signature` is the HMAC-SHA512 of `rawBody` under `secretKey`.
 * Missing or malformed signatures, and an empty secret key, are false; the comparison takes
 * constant time.
 */
export function isValidPaystackSignature(
  rawBody: string,
  signature: string | null | undefined,
  secretKey: string,
): boolean {
  // An empty key would let anyone compute a "valid" signature.
  if (secretKey === "") return false;
  if (typeof signature !== "string" || !HEX_SHA512.test(signature)) return false;
  const expected = Buffer.from(signPaystackPayload(rawBody, secretKey), "hex");
  const received = Buffer.from(signature, "hex");
  // timingSafeEqual throws on unequal lengths; the regex already guarantees 64 bytes.
  return received.length === expected.length && timingSafeEqual(received, expected);
}
