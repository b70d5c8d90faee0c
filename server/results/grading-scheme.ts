import { desc, lte } from "drizzle-orm";
import type { Database, Transaction } from "../db/client.ts";
import { gradingSchemes } from "../db/schema.ts";
import { NCE_SCHEME, type GradingScheme } from "../../common/results/grading.ts";

/**
 * The scheme a session's results are graded by: the latest the college set from that session or
 * before (sessions sort as text, "2024/2025" < "2025/2026"), else the NCE scale (decision 174).
 */
export async function schemeFor(
  db: Database | Transaction,
  session: string,
): Promise<GradingScheme> {
  const [row] = await db
    .select({ scheme: gradingSchemes.scheme })
    .from(gradingSchemes)
    .where(lte(gradingSchemes.fromSession, session))
    .orderBy(desc(gradingSchemes.fromSession))
    .limit(1);
  return row?.scheme ?? NCE_SCHEME;
}
