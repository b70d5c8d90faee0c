import { describe, expect, it } from "vitest";
import {
  matchesKeyword,
  pageOf,
  refusalToAdd,
  refusalToPick,
  refusalToRegister,
  registeredAtLevel,
  resetQuestion,
  type Countable,
} from "./selection.ts";

const course = (course_id: number, unit: number | string): Countable => ({ course_id, unit });
const units = (...values: number[]) => values.map((unit, index) => course(index + 1, unit));

describe("refusalToAdd", () => {
  it.each([
    ["an empty selection", [], course(1, 4), null],
    ["a course that reaches exactly 80", units(40, 36), course(9, 4), null],
    ["a course that passes 80 by one", units(40, 37), course(9, 4), "over-cap"],
    ["a single course above 80", [], course(9, 81), "over-cap"],
    ["units sent as strings", [course(1, "78")], course(9, "2"), null],
    ["units sent as strings, over", [course(1, "78")], course(9, "3"), "over-cap"],
    ["a course already taken", units(2, 3), course(2, 3), "duplicate"],
    ["a duplicate that would also pass the cap", units(79, 3), course(2, 3), "duplicate"],
  ] as const)("%s", (_case, taken, adding, expected) => {
    expect(refusalToAdd(taken, adding)).toBe(expected);
  });

  it("honours another cap", () => {
    expect(refusalToAdd(units(10), course(9, 3), 12)).toBe("over-cap");
  });
});

describe("refusalToRegister", () => {
  it.each([
    ["nothing registered, 80 units added", [], units(40, 40), null],
    ["72 registered, 8 added", [course(100, 72)], units(4, 4), null],
    ["72 registered, 9 added", [course(100, 72)], units(4, 5), { refusal: "over-cap", id: 2 }],
    [
      "the same course twice in one request",
      [],
      [course(1, 2), course(1, 2)],
      { refusal: "duplicate", id: 1 },
    ],
    [
      "a course registered before",
      [course(7, 3)],
      [course(1, 2), course(7, 3)],
      { refusal: "duplicate", id: 7 },
    ],
  ] as const)("%s", (_case, registered, adding, expected) => {
    const result = refusalToRegister(registered, adding);
    expect(result && { refusal: result.refusal, id: result.course.course_id }).toEqual(expected);
  });
});

describe("refusalToPick counts as the server does", () => {
  const at = (course_id: number, unit: number, registration_level: number) => ({
    course_id,
    unit,
    registration_level,
  });
  // A 200-level student with 40 units of 100-level carry-overs in the same session.
  const carryOvers = [at(101, 20, 100), at(102, 20, 100)];
  it.each([
    ["nothing registered", [], units(40), course(9, 4), null],
    ["carry-overs leave room", carryOvers, units(36), course(9, 4), null],
    ["carry-overs count against the cap", carryOvers, units(37), course(9, 4), "over-cap"],
    ["a carry-over picked again", carryOvers, [], course(101, 20), "duplicate"],
    ["a course already selected", [], units(2, 3), course(2, 3), "duplicate"],
  ] as const)("%s", (_case, registered, selected, picking, expected) => {
    expect(refusalToPick(registered, selected, picking)).toBe(expected);
    // Registering the selection with the pick gives the same answer on the server.
    expect(refusalToRegister(registered, [...selected, picking])?.refusal ?? null).toBe(expected);
  });
});

describe("registeredAtLevel", () => {
  it("keeps one level's registrations out of the session's", () => {
    const session = [
      { course_id: 1, registration_level: 100 },
      { course_id: 2, registration_level: 200 },
    ];
    expect(registeredAtLevel(session, "200")).toEqual([{ course_id: 2, registration_level: 200 }]);
  });
});

describe("matchesKeyword", () => {
  const english = { code: "ENG 111", title: "Introduction to Phonetics" };
  it.each([
    ["", true],
    ["eng", true],
    ["ENG 111", true],
    ["eng111", true],
    ["phonet", true],
    ["PHONETICS", true],
    ["111", true],
    ["to pho", true],
    ["bio", false],
    ["ENG 112", false],
  ])("%j matches: %s", (keyword, expected) => {
    expect(matchesKeyword(english, keyword)).toBe(expected);
  });
});

describe("pageOf", () => {
  const items = Array.from({ length: 23 }, (_, index) => index);
  it.each([
    [0, [0, 9], 0, 3],
    [2, [20, 22], 2, 3],
    [7, [20, 22], 2, 3],
    [-1, [0, 9], 0, 3],
  ])("page %i", (page, [first, last], current, pages) => {
    const result = pageOf(items, page, 10);
    expect([result.items[0], result.items.at(-1), result.page, result.pages]).toEqual([
      first,
      last,
      current,
      pages,
    ]);
  });

  it("has one empty page for no items", () => {
    expect(pageOf([], 0, 10)).toEqual({ items: [], page: 0, pages: 1 });
  });
});

describe("resetQuestion", () => {
  it.each([
    [
      1,
      100,
      "2024/2025",
      "Are you sure you want to reset your First Semester Course Registration for 100, 2024/2025?",
    ],
    [
      2,
      "200",
      "2023/2024",
      "Are you sure you want to reset your Second Semester Course Registration for 200, 2023/2024?",
    ],
  ] as const)("semester %i", (semester, level, session, question) => {
    expect(resetQuestion(semester, level, session)).toBe(question);
  });
});
