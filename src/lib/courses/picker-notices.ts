import { SELECT_A_SESSION } from "../../../common/courses/selection.ts";

// What the course picker's island and its page server both say; no zod here (decision 004).

/**
 * A message shown where the student will see it: an outcome at the top of the picker, a refused
 * tick in the row of the course refused (`courseId`), a refused Register by its button, a refused
 * search result by the search. Errors use role="alert". The page carries one at a time, with
 * `NOTICE_ID`, which the form's address names: a page the server answers opens at the message.
 */
export type Notice = {
  text: string;
  tone: "error" | "info" | "success";
  place: "top" | "table" | "actions" | "dialog";
  courseId?: number;
};

/** The id of the one notice on the page, and the fragment the form submits to. */
export const NOTICE_ID = "answer";

/** The part of the picker a submission without JavaScript came from, where its answer opens. */
export type Landing = "courses" | "search" | "selected";

/** What Register Courses says before asking the server, on the page and in the island alike. */
export function refusalBeforeRegister(
  session: string,
  level: string,
  selected: readonly unknown[],
): Notice | null {
  const info = (text: string): Notice => ({ text, tone: "info", place: "actions" });
  if (!session) return info(SELECT_A_SESSION);
  if (!level) return info("Select a level");
  if (selected.length === 0) return info("Select the courses you want to register.");
  return null;
}

/** The course-code search starts at 2 characters (spec section 9). */
export const SEARCH_MIN_CHARACTERS = 2;

/** The line under the course-code search: too short, nothing found, or nothing to say. */
export function searchStatus(code: string, results: readonly unknown[] | null) {
  const typed = code.trim();
  if (!typed) return "";
  if (typed.length < SEARCH_MIN_CHARACTERS)
    return `Type at least ${SEARCH_MIN_CHARACTERS} characters.`;
  return results?.length === 0 ? `No course code contains “${typed}”.` : "";
}

/** The address of the picker showing a level and session, with optional extras. */
export const pickerPath = (session: string, level: string, extra: Record<string, string> = {}) =>
  `/course-reg?${new URLSearchParams({ session, level, ...extra })}`;
