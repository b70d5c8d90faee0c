import { readSignedToken, signToken } from "../verification/signed-token.ts";

/**
 * The token in a transcript's link and QR code: signed like every printed check (decision 181),
 * for the purpose "transcript", so a slip's or an exam card's token never opens a transcript.
 */
export const transcriptToken = (reference: string, key: string): string =>
  signToken("transcript", reference, key);

/** The reference a token vouches for, or null when it was not signed with `key` for a transcript. */
export const readTranscriptToken = (token: string, key: string): string | null =>
  readSignedToken(token, key, ["transcript"])?.subject ?? null;

/** The public page a transcript's link and QR code open. */
export const transcriptUrl = (origin: string, reference: string, key: string) =>
  `${origin}/transcripts/${transcriptToken(reference, key)}`;
