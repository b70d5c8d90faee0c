import { createHmac, timingSafeEqual } from "node:crypto";

/** Which slip a verification token vouches for. */
export type SlipKind = "school-fee" | "hostel";

const KINDS: readonly SlipKind[] = ["school-fee", "hostel"];
// 16 bytes of HMAC-SHA256: 128 bits, far beyond guessing, and a QR code that stays small.
const SIGNATURE_BYTES = 16;

const sign = (payload: string, key: string) =>
  createHmac("sha256", key).update(payload).digest().subarray(0, SIGNATURE_BYTES);

/** The token in a slip's QR link: base64url("kind:reference") + "." + its truncated HMAC. */
export function slipToken(kind: SlipKind, reference: string, key: string): string {
  const payload = Buffer.from(`${kind}:${reference}`).toString("base64url");
  return `${payload}.${sign(payload, key).toString("base64url")}`;
}

/** The slip a token names, or null when it was not signed with `key` (forged, altered, cut short). */
export function readSlipToken(
  token: string,
  key: string,
): { kind: SlipKind; reference: string } | null {
  const match = /^([A-Za-z0-9_-]{4,200})\.([A-Za-z0-9_-]{22})$/.exec(token);
  if (!match) return null;
  const [, payload, signature] = match as unknown as [string, string, string];
  // Compare the text, not decoded bytes: base64url's spare bits would let altered tokens pass.
  const expected = Buffer.from(sign(payload, key).toString("base64url"));
  if (!timingSafeEqual(Buffer.from(signature), expected)) return null;
  const decoded = Buffer.from(payload, "base64url").toString("utf8");
  const separator = decoded.indexOf(":");
  const kind = decoded.slice(0, separator) as SlipKind;
  if (separator < 0 || !KINDS.includes(kind)) return null;
  return { kind, reference: decoded.slice(separator + 1) };
}

/** The public page a slip's QR code opens. */
export const slipVerifyUrl = (origin: string, kind: SlipKind, reference: string, key: string) =>
  `${origin}/verify/${slipToken(kind, reference, key)}`;
