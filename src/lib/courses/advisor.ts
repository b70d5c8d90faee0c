import type { Approval } from "./registered-course.ts";
import { semesterLabel } from "./selection.ts";

// Intl rather than dayjs: this runs in the course picker island too, where every KB counts.
const lagosDate = new Intl.DateTimeFormat("en-GB", {
  timeZone: "Africa/Lagos",
  day: "2-digit",
  month: "2-digit",
  year: "numeric",
});

/**
 * The Course Advisor line for each semester that has registered courses: who approved it and
 * when, or that approval is pending.
 */
export function advisorLines(semesters: readonly (1 | 2)[], approvals: readonly Approval[]) {
  return [...new Set(semesters)].sort().map((semester) => {
    const approval = approvals.find((entry) => entry.semester === semester);
    const status = approval
      ? `Approved by ${approval.approved_by} on ${lagosDate.format(new Date(approval.approved_at))}`
      : "Approval pending";
    return { semester, approved: Boolean(approval), text: `${semesterLabel(semester)}: ${status}` };
  });
}
