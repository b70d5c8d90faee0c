import { MAX_UNITS, totalUnits } from "./registration-status.ts";
import { semesterName } from "./selection.ts";

/**
 * Carry-overs in course registration (issue 32; decision 180). A compulsory course failed in a
 * published semester of an earlier session must be registered again, in the semester of the
 * programme's plan it belongs to, inside the session's unit cap. The page and the server both
 * decide with `carryOverPlan` and `missingCarryOvers`. No zod here: the course picker's island
 * ships this file (decision 004); the contract is in registered-course.ts.
 */

/** A carry-over as registration needs it: the course, its units and its semester. */
export type CarryOverCourse = {
  course_id: number;
  code: string;
  unit: number | string;
  semester: 1 | 2;
};

/** Where a carry-over stands in a session's registration. */
export const CARRY_OVER_STATES = ["registered", "required", "waiting"] as const;
export type CarryOverState = (typeof CARRY_OVER_STATES)[number];

export type PlannedCarryOver<T extends CarryOverCourse> = T & {
  state: CarryOverState;
  /** Why a carry-over waits for a later session (null unless waiting). */
  waiting_reason: string | null;
};

/** What a registered course needs to be for the plan: its course, units and semester. */
type Held = { course_id: number; unit: number | string; semester: number };

/**
 * Which of a session's carry-overs are registered, which the next registration of their semester
 * must include, and which wait for a later session. Carry-overs come first: oldest first, each is
 * required while it fits within the cap beside what the student cannot drop (the semesters the
 * adviser approved, and the carry-overs already registered). One that no longer fits, or whose
 * semester the adviser approved without it (before it was known, or once registration had closed:
 * decision 185), waits; it stays a carry-over, so the next session requires it.
 */
export function carryOverPlan<T extends CarryOverCourse>(
  carryOvers: readonly T[],
  registered: readonly Held[],
  approvedSemesters: ReadonlySet<number>,
  max = MAX_UNITS,
): PlannedCarryOver<T>[] {
  const isCarryOver = (course: Held) =>
    carryOvers.some((carried) => carried.course_id === course.course_id);
  let fixed = totalUnits(
    registered.filter((course) => approvedSemesters.has(course.semester) || isCarryOver(course)),
  );
  return carryOvers.map((course) => {
    if (registered.some((held) => held.course_id === course.course_id))
      return { ...course, state: "registered", waiting_reason: null };
    if (approvedSemesters.has(course.semester))
      return {
        ...course,
        state: "waiting",
        waiting_reason: `Your ${semesterName(course.semester)} semester was approved without it; register it next session.`,
      };
    if (fixed + Number(course.unit) > max)
      return {
        ...course,
        state: "waiting",
        waiting_reason: `Your older carry-overs and approved courses leave no room for it within ${max} units; register it next session.`,
      };
    fixed += Number(course.unit);
    return { ...course, state: "required", waiting_reason: null };
  });
}

/**
 * The required carry-overs a registration leaves out: those of a semester the registration adds
 * courses to. A registration of the other semester alone may go ahead; its own turn comes.
 */
export function missingCarryOvers<T extends CarryOverCourse>(
  plan: readonly PlannedCarryOver<T>[],
  adding: readonly { course_id: number; semester: number }[],
): PlannedCarryOver<T>[] {
  const semesters = new Set(adding.map((course) => course.semester));
  return plan.filter(
    (course) =>
      course.state === "required" &&
      semesters.has(course.semester) &&
      !adding.some((added) => added.course_id === course.course_id),
  );
}

/** The server's refusal of a registration that leaves carry-overs out, naming them. */
export function missingCarryOverMessage(missing: readonly { code: string }[]) {
  const codes = missing.map((course) => course.code).join(", ");
  const them = missing.length === 1 ? "it" : "them";
  return `Register your carry-over ${missing.length === 1 ? "course" : "courses"} ${codes} with this semester's courses: a compulsory course you failed must be taken again. Add ${them} and register again.`;
}

/** Added to the cap's refusal when required carry-overs are part of it. */
export const CARRY_OVERS_FIRST =
  "Carry-overs come first: drop other courses (or reset a semester) to make room for them.";

export const CARRY_OVER_LABEL = "Carry-over";

/**
 * Marks the registered courses that are carry-overs: the registration page, its history, the slip
 * and the adviser's review label them alike.
 */
export function markCarryOvers<T extends { course_id: number }>(
  registered: readonly T[],
  carryOvers: readonly { course_id: number }[],
): (T & { carry_over: boolean })[] {
  return registered.map((course) => ({
    ...course,
    carry_over: carryOvers.some((carried) => carried.course_id === course.course_id),
  }));
}

/** The carry-overs a registration now must include, as the picker pre-selects them. */
export const requiredCarryOvers = <T extends { state: CarryOverState }>(plan: readonly T[]) =>
  plan.filter((course) => course.state === "required");

/**
 * The picker's selection with the required carry-overs first: they are always selected and
 * cannot be removed; the student's own picks follow.
 */
export function withCarryOvers<T extends { course_id: number }>(
  required: readonly T[],
  chosen: readonly T[],
): T[] {
  const isRequired = (course: T) =>
    required.some((carried) => carried.course_id === course.course_id);
  return [...required, ...chosen.filter((course) => !isRequired(course))];
}
