import { and, eq } from "drizzle-orm";
import type { Transaction } from "../db/client.ts";
import { registrationApprovals, students } from "../db/schema.ts";
import type { JobQueue } from "../jobs/api-jobs.ts";
import { internationalPhone } from "./phone-numbers.ts";
import { wantsSmsNewsWhere } from "./preferences.ts";
import { resultsPublishedText } from "./templates.ts";
import { semesterLabel } from "../../common/courses/selection.ts";

/**
 * Texts each student with results in a just-published semester of their programme (an approved
 * registration in it, as the board's sheet lists them), unless they chose not to have results
 * news or replied STOP (decision 201). In the publishing transaction: a publication that fails
 * sends nothing. One message per student and publication. Not held by the daily cap: it is one
 * message per student when the board publishes, and a dropped one would never be sent again.
 * Answers how many were queued.
 */
export async function textResultsPublished(
  tx: Transaction,
  jobs: JobQueue,
  publication: { id: number; programmeId: number; session: string; semester: number },
): Promise<number> {
  const people = await tx
    .select({ id: students.id, phone: students.phone })
    .from(registrationApprovals)
    .innerJoin(students, eq(students.id, registrationApprovals.studentId))
    .where(
      and(
        eq(students.programmeId, publication.programmeId),
        eq(registrationApprovals.session, publication.session),
        eq(registrationApprovals.semester, publication.semester),
        wantsSmsNewsWhere("results_news"),
      ),
    );
  const text = resultsPublishedText(
    semesterLabel(publication.semester as 1 | 2),
    publication.session,
  );
  let queued = 0;
  for (const person of people) {
    const sent = await jobs.sendSms(tx, {
      key: `results:${publication.id}:${person.id}`,
      kind: "results-published",
      studentId: person.id,
      to: internationalPhone(person.phone),
      text,
    });
    if (sent) queued += 1;
  }
  return queued;
}
