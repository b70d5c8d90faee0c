import { createHmac, timingSafeEqual } from "node:crypto";

// As a slip's token (decision 014): 16 bytes of HMAC-SHA256, beyond guessing, in a small QR code.
const SIGNATURE_BYTES = 16;
const PREFIX = "transcript:";

const sign = (payload: string, key: string) =>
  createHmac("sha256", key)
    .update(payload)
    .digest()
    .subarray(0, SIGNATURE_BYTES)
    .toString("base64url");

/** The token in a transcript's link and QR code: base64url("transcript:reference") + "." + its HMAC. */
export function transcriptToken(reference: string, key: string): string {
  const payload = Buffer.from(`${PREFIX}${reference}`).toString("base64url");
  return `${payload}.${sign(payload, key)}`;
}

/** The reference a token vouches for, or null when it was not signed with `key` (forged, altered, cut short). */
export function readTranscriptToken(token: string, key: string): string | null {
  const match = /^([A-Za-z0-9_-]{4,200})\.([A-Za-z0-9_-]{22})$/.exec(token);
  if (!match) return null;
  const [, payload, signature] = match as unknown as [string, string, string];
  // Compare the text, not decoded bytes: base64url's spare bits would let altered tokens pass.
  if (!timingSafeEqual(Buffer.from(signature), Buffer.from(sign(payload, key)))) return null;
  const decoded = Buffer.from(payload, "base64url").toString("utf8");
  // A slip's token is signed with the same key: its prefix keeps it from opening a transcript.
  return decoded.startsWith(PREFIX) ? decoded.slice(PREFIX.length) : null;
}

/** The public page a transcript's link and QR code open. */
export const transcriptUrl = (origin: string, reference: string, key: string) =>
  `${origin}/transcripts/${transcriptToken(reference, key)}`;
