import type {
  Approval,
  CarryOver,
  Course,
  ReturnedSemester,
} from "../../../common/courses/registered-course.ts";
import type { Landing, Notice } from "../../lib/courses/picker-notices.ts";

export type { Notice };

/**
 * What the /course-reg page hands the course picker with its HTML: the state the last form
 * submission asked for (decision 092), so the first paint needs no fetch and the island
 * hydrates over the same form a browser without JavaScript submits.
 */
export type CoursePickerProps = {
  studentId: number;
  /** Sessions newest first, with whether registration may still change. */
  sessions: { name: string; course_modifiable: boolean }[];
  /** The chosen session; "" when the student chose none. */
  session: string;
  /** The registration level ("" when none is chosen): the profile's, or the one chosen. */
  level: string;
  fee: { label: string; tone: "success" | "warning" | "danger"; session: string | null };
  /** Every course registered in `session`, at any level: carry-overs count against the cap too. */
  registered: Course[];
  approvals: Approval[];
  /** Semesters the Course Advisor sent back, with the note. */
  returns: ReturnedSemester[];
  /** The session's carry-overs: registered, required (always selected) or waiting (decision 180). */
  carryOvers: CarryOver[];
  /** The programme's courses at `level`, both semesters. */
  offered: Course[];
  semester: "" | "1" | "2";
  /** The course table's keyword filter and 0-based page. */
  keyword: string;
  page: number;
  showRegistered: boolean;
  /** The courses picked so far (not yet registered). */
  selected: Course[];
  /** The course-code search as submitted, and its results (null: no search made). */
  code: string;
  searchResults: Course[] | null;
  notice: Notice | null;
  /** Without a notice, the part of the page the answer opens at (the form submits to `#answer`). */
  landing: Landing | null;
};

export const SEMESTER_NAMES: Record<1 | 2, string> = { 1: "FIRST", 2: "SECOND" };

/**
 * The session's registrations at every level, as the server counts them for the cap, and its
 * carry-overs: one answer (decision 204).
 */
export const pickerViewPath = (session: string) =>
  `/courses/picker-view?${new URLSearchParams({ session })}`;

export const printoutPath = (level: string, session: string) =>
  `/course-reg/print?${new URLSearchParams({ level, session })}`;

/** Before hydration a button submits its form; after it, the island handles the click instead. */
export const handled = (action: () => void) => (event: { preventDefault(): void }) => {
  event.preventDefault();
  action();
};
