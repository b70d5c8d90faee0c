import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * What a printed document's verification token vouches for. The purpose is signed with the
 * subject, so a token made for one kind of document never opens another's check: a slip's token
 * is not a result's, nor an exam card's.
 */
export type TokenPurpose =
  "school-fee" | "hostel" | "results" | "exam-card" | "transcript" | "payment-invoice";

const PURPOSES: readonly TokenPurpose[] = [
  "school-fee",
  "hostel",
  "results",
  "exam-card",
  "transcript",
  "payment-invoice",
];
// 16 bytes of HMAC-SHA256: 128 bits, far beyond guessing, and a QR code that stays small.
const SIGNATURE_BYTES = 16;

const sign = (payload: string, key: string) =>
  createHmac("sha256", key).update(payload).digest().subarray(0, SIGNATURE_BYTES);

/** base64url("purpose:subject") + "." + its truncated HMAC: the token in a document's QR link. */
export function signToken(purpose: TokenPurpose, subject: string, key: string): string {
  const payload = Buffer.from(`${purpose}:${subject}`).toString("base64url");
  return `${payload}.${sign(payload, key).toString("base64url")}`;
}

/**
 * The purpose and subject a token names, or null when it was not signed with `key` (forged,
 * altered, cut short) or names a purpose outside `accepted`.
 */
export function readSignedToken<P extends TokenPurpose>(
  token: string,
  key: string,
  accepted: readonly P[],
): { purpose: P; subject: string } | null {
  const match = /^([A-Za-z0-9_-]{4,200})\.([A-Za-z0-9_-]{22})$/.exec(token);
  if (!match) return null;
  const [, payload, signature] = match as unknown as [string, string, string];
  // Compare the text, not decoded bytes: base64url's spare bits would let altered tokens pass.
  const expected = Buffer.from(sign(payload, key).toString("base64url"));
  if (!timingSafeEqual(Buffer.from(signature), expected)) return null;
  const decoded = Buffer.from(payload, "base64url").toString("utf8");
  const separator = decoded.indexOf(":");
  if (separator < 0) return null;
  const purpose = decoded.slice(0, separator) as P;
  if (!PURPOSES.includes(purpose) || !accepted.includes(purpose)) return null;
  return { purpose, subject: decoded.slice(separator + 1) };
}
