import type { Database } from "../../db/client.ts";
import { registrationRecord } from "../student-view.ts";
import { totalUnits } from "../../../common/courses/registration-status.ts";
import type { ReviewStatus, SemesterReview } from "../../../common/courses/advising.ts";

/**
 * Where a semester stands: no courses is "not submitted" whatever else was recorded; an approval
 * freezes it; a return lasts until the student changes the semester (the change removes it).
 */
export function semesterStatus(facts: {
  courses: number;
  approved: boolean;
  returned: boolean;
}): ReviewStatus {
  if (facts.courses === 0) return "not_submitted";
  if (facts.approved) return "approved";
  if (facts.returned) return "returned";
  return "pending";
}

/** Both semesters of a student's registration in a session, as the adviser reviews them. */
export async function semesterReviews(
  db: Database,
  studentId: number,
  session: string,
): Promise<SemesterReview[]> {
  const { data: registered, approvals, returns } = await registrationRecord(db, studentId, session);
  return ([1, 2] as const).map((semester) => {
    const courses = registered.filter((course) => course.semester === semester);
    const approval = approvals.find((entry) => entry.semester === semester);
    const returned = returns.find((entry) => entry.semester === semester);
    return {
      semester,
      status: semesterStatus({
        courses: courses.length,
        approved: Boolean(approval),
        returned: Boolean(returned),
      }),
      courses,
      total_units: totalUnits(courses),
      approved_by: approval?.approved_by ?? null,
      approved_at: approval?.approved_at ?? null,
      returned_by: returned?.returned_by ?? null,
      returned_at: returned?.returned_at ?? null,
      note: returned?.note ?? null,
    };
  });
}
