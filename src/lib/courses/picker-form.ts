import type { Course } from "../../../common/courses/registered-course.ts";
import { SessionName } from "../../../common/courses/requests.ts";
import {
  ALREADY_SELECTED,
  LEVELS,
  OVER_CAP,
  OVER_CAP_IN_TABLE,
  refusalToPick,
} from "../../../common/courses/selection.ts";
import type { Landing, Notice } from "./picker-notices.ts";

/**
 * The course picker as a plain HTML form (decision 092): every choice travels in the form, so
 * the page server can render the next state without JavaScript. Field names:
 * `level`, `session`, `semester`, `keyword`, `page` (1-based; `goto` from the pager wins),
 * `code` (course-code search), `keep_registered` / `toggle_registered` (the registered table),
 * `sel` + `sel_level` (the selection as last rendered, and the level it was made at),
 * `shown` (ids ticked or not on the rendered page of the table), `pick` (ticked boxes),
 * `add` (a search result's button) and `drop` (a selected course's remove button).
 * Page server only: it reads with zod's session rule, which the island must not ship (decision 004).
 */
export type PickerForm = {
  level: string;
  /** null when the form carried none (first visit) or a malformed one: the page shows the current session. */
  session: string | null;
  semester: "" | "1" | "2";
  keyword: string;
  /** 0-based page of the course table. */
  page: number;
  code: string;
  showRegistered: boolean;
  selLevel: string;
  sel: number[];
  shown: number[];
  pick: number[];
  add: number | null;
  drop: number | null;
  /** Where the answer opens when it has no message: the part whose button was pressed. */
  landing: Landing | null;
};

type Fields = { get(name: string): unknown; getAll(name: string): unknown[] };

const text = (value: unknown, max = 100) =>
  typeof value === "string" ? value.trim().slice(0, max) : "";
// Ids are whole positive numbers; anything else in a forged address is ignored.
const id = (value: unknown) => {
  const number = Number(text(value, 12));
  return Number.isSafeInteger(number) && number > 0 ? number : null;
};
const ids = (values: unknown[]) =>
  values
    .slice(0, 200)
    .map(id)
    .filter((value): value is number => value !== null);
const level = (value: unknown) => {
  const wanted = text(value, 3);
  return LEVELS.some((known) => String(known) === wanted) ? wanted : "";
};

// The pager, Filter and "Add ticked courses" send `goto`; Search Courses sends `search`.
function landing(fields: Fields): Landing | null {
  if (fields.get("drop") !== null) return "selected";
  if (fields.get("add") !== null || fields.get("search") !== null) return "search";
  return fields.get("goto") !== null ? "courses" : null;
}

/** Reads the picker's fields from the address (GET) or a posted form, tolerating anything. */
export function readPickerForm(fields: Fields, defaultLevel: number): PickerForm {
  const semester = text(fields.get("semester"), 1);
  const page = Number(text(fields.get("goto"), 4) || text(fields.get("page"), 4));
  const keep = fields.get("keep_registered") === "1";
  const toggle = fields.get("toggle_registered") === "1";
  return {
    level: fields.get("level") === null ? String(defaultLevel) : level(fields.get("level")),
    // Blank is a choice (Register then says 'Select a session'); a malformed one is ignored.
    session:
      fields.get("session") === ""
        ? ""
        : (SessionName.safeParse(fields.get("session")).data ?? null),
    semester: semester === "1" || semester === "2" ? semester : "",
    keyword: text(fields.get("keyword")),
    page: Number.isSafeInteger(page) && page > 0 ? page - 1 : 0,
    code: text(fields.get("code"), 20),
    showRegistered: keep !== toggle,
    selLevel: level(fields.get("sel_level")),
    sel: ids(fields.getAll("sel")),
    shown: ids(fields.getAll("shown")),
    pick: ids(fields.getAll("pick")),
    add: id(fields.get("add")),
    drop: id(fields.get("drop")),
    landing: landing(fields),
  };
}

/**
 * The course ids the student wants after this submission, in the order they were chosen: what
 * was selected before (unless unticked on the page, or chosen at another level), then new
 * ticks, then the search result added; minus the one removed.
 */
export function wantedCourseIds(form: PickerForm): number[] {
  const before = form.selLevel === form.level ? form.sel : [];
  const kept = before.filter(
    (course) => !form.shown.includes(course) || form.pick.includes(course),
  );
  const ticked = form.pick.filter((course) => !before.includes(course));
  const wanted = [...new Set([...kept, ...ticked])];
  if (form.add !== null) wanted.push(form.add);
  return wanted.filter((course) => course !== form.drop);
}

/**
 * What Register sends: the required carry-overs (whatever the form says: they cannot be
 * removed), then the courses the student wants, as asked; the server's rules decide.
 */
export function registrationCourseIds(form: PickerForm, carryOvers: readonly Course[]) {
  const required = carryOvers.map((course) => course.course_id);
  return [...required, ...wantedCourseIds(form).filter((course) => !required.includes(course))];
}

/**
 * The selection the page shows: the required carry-overs first (decision 180), then each wanted
 * course in turn, if it is offered at the level and passes the same check Register makes
 * (refusalToPick). The first refusal becomes the notice, in the spec's wording for where the
 * course was picked, naming the course so the table can show it in that course's row.
 */
export function resolveSelection(
  form: PickerForm,
  offered: readonly Course[],
  sessionRegistered: readonly Course[],
  carryOvers: readonly Course[] = [],
): { selected: Course[]; notice: Notice | null } {
  const selected: Course[] = [...carryOvers];
  let notice: Notice | null = null;
  const refuse = (next: Notice) => (notice ??= next);
  for (const courseId of wantedCourseIds(form)) {
    if (carryOvers.some((course) => course.course_id === courseId)) continue;
    const fromSearch = courseId === form.add;
    const place = fromSearch ? "dialog" : "table";
    const course = offered.find((entry) => entry.course_id === courseId);
    if (!course) {
      refuse({
        text: `A course you chose is not offered to your programme at ${form.level || "this"} level; it was left out.`,
        tone: "error",
        place,
      });
      continue;
    }
    const refusal = refusalToPick(sessionRegistered, selected, course);
    if (refusal === "duplicate") refuse({ text: ALREADY_SELECTED, tone: "error", place, courseId });
    else if (refusal === "over-cap")
      refuse({ text: fromSearch ? OVER_CAP : OVER_CAP_IN_TABLE, tone: "error", place, courseId });
    else selected.push(course);
  }
  return { selected, notice };
}
