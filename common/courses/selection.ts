import { MAX_UNITS, totalUnits } from "./registration-status.ts";

/** Levels a student can register at (spec section 9). */
export const LEVELS = [100, 200, 300, 400, 500] as const;

/** The spec's alert when a course would take the selection over the cap (search modal). */
export const OVER_CAP = `Cannot exceed maximum of ${MAX_UNITS} units!`;
/** The same alert when the course is ticked in the course table (spec section 5). */
export const OVER_CAP_IN_TABLE = `Cannot exceed maximum of ${MAX_UNITS} units`;
export const ALREADY_SELECTED = "Course already selected!";
export const SELECT_A_SESSION = "Select a session";
export const APPROVED_CANNOT_RESET =
  "You cannot delete courses after the Course Advisor have approved your course registration.";

/** The least a rule needs to know about a course. */
export type Countable = { course_id: number; unit: number | string };

export type Refusal = "duplicate" | "over-cap";

/**
 * Why `course` cannot join `taken` (the session's registered courses plus those already
 * selected), or null when it can. Duplicates are named before the cap.
 */
export function refusalToAdd(
  taken: readonly Countable[],
  course: Countable,
  max = MAX_UNITS,
): Refusal | null {
  if (taken.some((chosen) => chosen.course_id === course.course_id)) return "duplicate";
  if (totalUnits(taken) + Number(course.unit) > max) return "over-cap";
  return null;
}

/**
 * The server's check of one registration: adds each course in turn to what the session already
 * holds and names the first refusal and the course that caused it. `registered` is the whole
 * session at every level: carry-over courses count against the cap like any other.
 */
export function refusalToRegister<T extends Countable>(
  registered: readonly Countable[],
  adding: readonly T[],
  max = MAX_UNITS,
): { refusal: Refusal; course: T } | null {
  const taken: Countable[] = [...registered];
  for (const course of adding) {
    const refusal = refusalToAdd(taken, course, max);
    if (refusal) return { refusal, course };
    taken.push(course);
  }
  return null;
}

/**
 * The course picker's check when a student ticks `course`: the same check the server makes when
 * the selection is registered, so a pick the page accepts is never refused on Register.
 */
export function refusalToPick(
  sessionRegistered: readonly Countable[],
  selected: readonly Countable[],
  course: Countable,
  max = MAX_UNITS,
): Refusal | null {
  return refusalToRegister(sessionRegistered, [...selected, course], max)?.refusal ?? null;
}

/** The registrations of one level, out of a session's registrations at every level. */
export const registeredAtLevel = <T extends { registration_level?: number }>(
  sessionRegistered: readonly T[],
  level: number | string,
) => sessionRegistered.filter((course) => String(course.registration_level) === String(level));

const squash = (text: string) => text.toLowerCase().replace(/\s+/g, "");

/** The course table's keyword search: contains-match on code or title, ignoring case and spaces. */
export function matchesKeyword(course: { code: string; title: string }, keyword: string) {
  const wanted = squash(keyword);
  return (
    wanted === "" || squash(course.code).includes(wanted) || squash(course.title).includes(wanted)
  );
}

/** One page of a list (pages count from 0); a page past the end gives the last page. */
export function pageOf<T>(items: readonly T[], page: number, size: number) {
  const pages = Math.max(1, Math.ceil(items.length / size));
  const current = Math.min(Math.max(0, page), pages - 1);
  return { items: items.slice(current * size, current * size + size), page: current, pages };
}

export const semesterLabel = (semester: 1 | 2) =>
  semester === 1 ? "First Semester" : "Second Semester";
export const semesterName = (semester: 1 | 2) => (semester === 1 ? "first" : "second");

/** The reset confirmation (spec section 5). */
export const resetQuestion = (semester: 1 | 2, level: number | string, session: string) =>
  `Are you sure you want to reset your ${semesterLabel(semester)} Course Registration for ${level}, ${session}?`;
