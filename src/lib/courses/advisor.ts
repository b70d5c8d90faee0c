import type { Approval, ReturnedSemester } from "../../../common/courses/registered-course.ts";
import { semesterLabel } from "../../../common/courses/selection.ts";

// Intl rather than dayjs: this runs in the course picker island too, where every KB counts.
const lagosDate = new Intl.DateTimeFormat("en-GB", {
  timeZone: "Africa/Lagos",
  day: "2-digit",
  month: "2-digit",
  year: "numeric",
});

/** `status` alone suits a place that already names the semester (the slip); `text` names it. */
export type AdvisorLine = {
  semester: 1 | 2;
  tone: "success" | "danger" | "warning";
  status: string;
  text: string;
};

/**
 * The Course Advisor line for each semester that has registered courses: who approved it and
 * when, who returned it and their note, or that approval is pending.
 */
export function advisorLines(
  semesters: readonly (1 | 2)[],
  approvals: readonly Approval[],
  returns: readonly ReturnedSemester[] = [],
): AdvisorLine[] {
  return [...new Set(semesters)].sort().map((semester) => {
    const approval = approvals.find((entry) => entry.semester === semester);
    const returned = returns.find((entry) => entry.semester === semester);
    const line = (tone: AdvisorLine["tone"], status: string) => ({
      semester,
      tone,
      status,
      text: `${semesterLabel(semester)}: ${status}`,
    });
    if (approval) {
      return line(
        "success",
        `Approved by ${approval.approved_by} on ${lagosDate.format(new Date(approval.approved_at))}`,
      );
    }
    if (returned) {
      const on = lagosDate.format(new Date(returned.returned_at));
      return line("danger", `Returned by ${returned.returned_by} on ${on}: ${returned.note}`);
    }
    return line("warning", "Approval pending");
  });
}
