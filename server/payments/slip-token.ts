import { readSignedToken, signToken } from "../verification/signed-token.ts";

/** Which slip a verification token vouches for. */
export type SlipKind = "school-fee" | "hostel";

const KINDS: readonly SlipKind[] = ["school-fee", "hostel"];

/** The token in a slip's QR link: base64url("kind:reference") + "." + its truncated HMAC. */
export const slipToken = (kind: SlipKind, reference: string, key: string): string =>
  signToken(kind, reference, key);

/**
 * The slip a token names, or null when it was not signed with `key` (forged, altered, cut short)
 * or was made for another kind of document (a result's, an exam card's).
 */
export function readSlipToken(
  token: string,
  key: string,
): { kind: SlipKind; reference: string } | null {
  const read = readSignedToken(token, key, KINDS);
  return read && { kind: read.purpose, reference: read.subject };
}

/** The public page a slip's QR code opens. */
export const slipVerifyUrl = (origin: string, kind: SlipKind, reference: string, key: string) =>
  `${origin}/verify/${slipToken(kind, reference, key)}`;
