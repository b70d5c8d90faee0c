import type { Approval, Course, ReturnedSemester } from "../../lib/courses/registered-course.ts";

/** What the /course-reg page hands the course picker with its HTML, so the first paint needs no fetch. */
export type CoursePickerProps = {
  studentId: number;
  /** Sessions newest first, with whether registration may still change. */
  sessions: { name: string; course_modifiable: boolean }[];
  session: string;
  /** The registration level: the profile's, or the one the student last registered at. */
  level: number;
  fee: { label: string; tone: "success" | "warning" | "danger"; session: string | null };
  /** Every course registered in `session`, at any level: carry-overs count against the cap too. */
  registered: Course[];
  approvals: Approval[];
  /** Semesters the Course Advisor sent back, with the note. */
  returns: ReturnedSemester[];
  /** The programme's courses at `level`, both semesters. */
  offered: Course[];
  /** Shown once after a successful registration reloaded the page. */
  notice?: string;
};

/** A message shown by the course table, by the action buttons or in the search dialog; errors use role="alert". */
export type Notice = {
  text: string;
  tone: "error" | "info" | "success";
  place: "table" | "actions" | "dialog";
};

export const SEMESTER_NAMES: Record<1 | 2, string> = { 1: "FIRST", 2: "SECOND" };

/** The session's registrations at every level, as the server counts them for the cap. */
export const sessionViewPath = (session: string) =>
  `/courses/student-view?${new URLSearchParams({ session })}`;

export const printoutPath = (level: string, session: string) =>
  `/course-reg/print?${new URLSearchParams({ level, session })}`;
