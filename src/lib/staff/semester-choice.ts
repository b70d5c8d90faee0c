import { LEVELS } from "../../../common/courses/selection.ts";

/** A programme's semester as the exams office's pages carry it in their address. */
export type ChosenSemester = {
  programme_id: string;
  session: string;
  semester: "1" | "2";
  /** One level, or null for all. */
  level: number | null;
};

/** Reads the choice from a page's address (or a posted form): blanks stay blank for the form to ask. */
export function chosenSemester(read: (name: string) => string | null | undefined): ChosenSemester {
  const level = Number(read("level"));
  return {
    programme_id: read("programme_id")?.trim() ?? "",
    session: read("session")?.trim() ?? "",
    semester: read("semester") === "2" ? "2" : "1",
    level: (LEVELS as readonly number[]).includes(level) ? level : null,
  };
}

/** The query string of a choice, for links between the exams office's pages. */
export function semesterQuery(choice: ChosenSemester) {
  return new URLSearchParams({
    programme_id: choice.programme_id,
    session: choice.session,
    semester: choice.semester,
    ...(choice.level === null ? {} : { level: String(choice.level) }),
  }).toString();
}

export const semesterWords = (semester: string | number) =>
  String(semester) === "2" ? "Second Semester" : "First Semester";

/**
 * The session a page shows from the college's list: the one asked for when the college has it,
 * else the current one (else the newest). `unknown` is a session asked for that it does not have.
 */
export function sessionShown(
  asked: string,
  choices: { sessions: readonly string[]; current: string | null },
): { session: string; unknown: string | null } {
  if (choices.sessions.includes(asked)) return { session: asked, unknown: null };
  const fallback = choices.current ?? choices.sessions[0] ?? "";
  return { session: fallback, unknown: asked || null };
}
