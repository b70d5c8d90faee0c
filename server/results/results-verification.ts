import type { ApiDeps } from "../deps.ts";
import { ApiError } from "../http/errors.ts";
import type { ResultsCheck } from "../../common/results/exam-card.ts";
import { readSignedToken, signToken } from "../verification/signed-token.ts";
import { cardHolder, recordId } from "../verification/card-holder.ts";
import { myResults } from "./student-results.ts";

type VerifyDeps = Pick<ApiDeps, "db" | "publicOrigin" | "slipSigningKey" | "resultsRequireFees">;

/** The public page the QR on a student's printed results opens: one link per student. */
export const resultsVerifyUrl = (deps: VerifyDeps, studentId: number) =>
  `${deps.publicOrigin}/verify/results/${signToken("results", String(studentId), deps.slipSigningKey)}`;

const NOT_GENUINE =
  "These results could not be verified. They were not issued by this portal, or the link has been altered.";

/**
 * What anyone holding printed results can check without signing in: the student, and each
 * semester the student themselves can see (published, and not withheld for fees) with its GPA
 * and CGPA. The record as it stands today, amendments included; a bad token is a 404.
 */
export async function checkResults(deps: VerifyDeps, token: string): Promise<ResultsCheck> {
  const read = readSignedToken(token, deps.slipSigningKey, ["results"]);
  const studentId = read ? recordId(read.subject) : null;
  const holder = studentId ? await cardHolder(deps.db, studentId) : null;
  if (!holder || !studentId) throw new ApiError(404, NOT_GENUINE);
  const results = await myResults(deps.db, studentId, deps.resultsRequireFees ?? true);
  return {
    name: holder.name,
    matric_no: holder.matricNo,
    programme: holder.programme,
    semesters: results.semesters.map((semester) => ({
      session: semester.session,
      semester: semester.semester,
      units: semester.units,
      gpa: semester.gpa,
      cgpa: semester.cgpa,
    })),
  };
}
