import { createHash, timingSafeEqual } from "node:crypto";

// Remita proves each call with a SHA-512 over the call's values and the API key, concatenated
// with no separators, written as lowercase hex (Remita's SDKs: .NET lowercases, PHP, Python and
// crypto-js write lowercase). The API key itself is never sent. Decision 188 cites the sources.

/** SHA-512 of the UTF-8 text, lowercase hex. */
export function sha512Hex(text: string): string {
  return createHash("sha512").update(text, "utf8").digest("hex");
}

/**
 * paymentinit's `remitaConsumerToken`: SHA512(merchantId + serviceTypeId + orderId + amount +
 * apiKey), where `amount` is byte for byte the text sent in the body.
 */
export function paymentInitHash(fields: {
  merchantId: string;
  serviceTypeId: string;
  orderId: string;
  amount: string;
  apiKey: string;
}): string {
  const { merchantId, serviceTypeId, orderId, amount, apiKey } = fields;
  return sha512Hex(merchantId + serviceTypeId + orderId + amount + apiKey);
}

/**
 * The hash in a status path and in deactivate.json's body: SHA512(key + apiKey + merchantId),
 * where the key is the RRR (status.reg, deactivate.json) or our order id (orderstatus.reg).
 */
export function statusHash(fields: { key: string; apiKey: string; merchantId: string }): string {
  return sha512Hex(fields.key + fields.apiKey + fields.merchantId);
}

/** The `hash` field of the form posted to finalize.reg: SHA512(merchantId + rrr + apiKey). */
export function finalizeHash(fields: { merchantId: string; rrr: string; apiKey: string }): string {
  return sha512Hex(fields.merchantId + fields.rrr + fields.apiKey);
}

/**
 * `Authorization: remitaConsumerKey=<merchantId>,remitaConsumerToken=<hash>`: no scheme word and
 * no space after the comma, as every SDK writes it.
 */
export function remitaAuthorization(merchantId: string, hash: string): string {
  return `remitaConsumerKey=${merchantId},remitaConsumerToken=${hash}`;
}

const AUTHORIZATION = /^\s*remitaConsumerKey=([^,\s]*)\s*,\s*remitaConsumerToken=([^,\s]*)\s*$/;

/** The merchant id and token of an Authorization header in Remita's form; null for any other. */
export function readRemitaAuthorization(
  header: string | null | undefined,
): { merchantId: string; token: string } | null {
  const match = AUTHORIZATION.exec(header ?? "");
  return match ? { merchantId: match[1]!, token: match[2]! } : null;
}

/** Whether two hex hashes are equal, case-insensitively, in constant time. */
export function sameHash(given: string, expected: string): boolean {
  const a = Buffer.from(given.toLowerCase(), "utf8");
  const b = Buffer.from(expected.toLowerCase(), "utf8");
  return a.length === b.length && timingSafeEqual(a, b);
}
