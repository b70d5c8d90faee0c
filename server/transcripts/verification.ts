import { and, eq, isNotNull } from "drizzle-orm";
import type { ApiDeps } from "../deps.ts";
import { transcriptRequests } from "../db/schema.ts";
import { ApiError } from "../http/errors.ts";
import {
  NOT_GENUINE,
  type PublicTranscript,
  type TranscriptCheck,
} from "../../common/transcripts/transcripts.ts";
import { readTranscriptToken } from "./transcript-token.ts";

async function releasedByReference(db: ApiDeps["db"], reference: string) {
  const [row] = await db
    .select({
      reference: transcriptRequests.reference,
      releasedAt: transcriptRequests.releasedAt,
      snapshot: transcriptRequests.snapshot,
    })
    .from(transcriptRequests)
    .where(
      and(eq(transcriptRequests.reference, reference), isNotNull(transcriptRequests.releasedAt)),
    );
  return row?.snapshot && row.reference && row.releasedAt
    ? { reference: row.reference, releasedAt: row.releasedAt, snapshot: row.snapshot }
    : null;
}

/**
 * The released transcript a signed token names, exactly as it was written on release; a token
 * not signed by the college (forged, altered, cut short) is answered 404 "not genuine", never 500.
 */
export async function transcriptByToken(
  deps: Pick<ApiDeps, "db" | "slipSigningKey">,
  token: string,
): Promise<PublicTranscript> {
  const reference = readTranscriptToken(token, deps.slipSigningKey);
  const found = reference ? await releasedByReference(deps.db, reference) : null;
  if (!found) throw new ApiError(404, NOT_GENUINE);
  return {
    reference: found.reference,
    issued_at: found.releasedAt.toISOString(),
    transcript: found.snapshot,
  };
}

/**
 * An institution's check by reference and matric number, both as the transcript shows them:
 * a reference alone is not enough, so guessing one finds nothing. The answer is what to compare
 * with the paper, not the whole transcript (the signed link is the student's to give).
 */
export async function checkTranscript(
  db: ApiDeps["db"],
  check: { reference: string; matric_no: string },
): Promise<TranscriptCheck> {
  const found = await releasedByReference(db, check.reference);
  const sameMatric =
    found?.snapshot.matric_no?.trim().toUpperCase() === check.matric_no.trim().toUpperCase();
  if (!found || !sameMatric) throw new ApiError(404, NOT_GENUINE);
  const { snapshot } = found;
  return {
    reference: found.reference,
    issued_at: found.releasedAt.toISOString(),
    name: `${snapshot.surname.toUpperCase()}, ${snapshot.othername}`,
    matric_no: snapshot.matric_no,
    programme: snapshot.programme,
    cgpa: snapshot.cgpa,
    certificate_class: snapshot.certificate_class,
  };
}
