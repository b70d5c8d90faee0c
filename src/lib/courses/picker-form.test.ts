import { describe, expect, it } from "vitest";
import {
  readPickerForm,
  registrationCourseIds,
  resolveSelection,
  wantedCourseIds,
} from "./picker-form.ts";
import { searchStatus } from "./picker-notices.ts";
import type { Course } from "../../../common/courses/registered-course.ts";

const course = (course_id: number, unit: number, semester: 1 | 2 = 1): Course => ({
  id: course_id,
  course_id,
  code: `ENG ${course_id}`,
  title: `Course ${course_id}`,
  unit: String(unit),
  semester,
});
const read = (query: string) => readPickerForm(new URLSearchParams(query), 100);

describe("readPickerForm", () => {
  it("starts at the student's level and the current session on a first visit", () => {
    expect(read("")).toMatchObject({
      level: "100",
      session: null,
      semester: "",
      page: 0,
      showRegistered: false,
    });
  });
  it("keeps a blank session as a choice and ignores a malformed one", () => {
    expect(read("session=").session).toBe("");
    expect(read("session=2024%2F2025").session).toBe("2024/2025");
    expect(read("session=drop%20table").session).toBeNull();
  });
  it("ignores levels, semesters and ids that are not the picker's", () => {
    expect(read("level=600&semester=3&sel=-1&sel=abc&pick=1e3&add=0").level).toBe("");
    expect(read("level=600&semester=3&sel=-1&sel=abc&pick=1e3&add=0")).toMatchObject({
      semester: "",
      sel: [],
      pick: [1000],
      add: null,
    });
  });
  it("opens the answer at the part whose button was pressed", () => {
    expect(read("goto=2&code=EDU").landing).toBe("courses");
    expect(read("code=EDU&search=1").landing).toBe("search");
    expect(read("add=5&goto=1").landing).toBe("search");
    expect(read("drop=5&code=EDU").landing).toBe("selected");
    expect(read("semester=1").landing).toBeNull();
  });
  it("takes the pager's page over the kept one, and toggles the registered table", () => {
    expect(read("page=2&goto=3").page).toBe(2);
    expect(read("keep_registered=1").showRegistered).toBe(true);
    expect(read("keep_registered=1&toggle_registered=1").showRegistered).toBe(false);
    expect(read("toggle_registered=1").showRegistered).toBe(true);
  });
});

describe("wantedCourseIds", () => {
  it("keeps earlier picks, drops those unticked on screen, adds new ticks, the search result, minus the removed one", () => {
    const form = read(
      "level=100&sel_level=100&sel=1&sel=2&sel=3&shown=2&shown=3&shown=4&pick=3&pick=4&add=5&drop=1",
    );
    expect(wantedCourseIds(form)).toEqual([3, 4, 5]);
  });
  it("starts again when the level changed", () => {
    expect(wantedCourseIds(read("level=200&sel_level=100&sel=1&pick=7"))).toEqual([7]);
  });
});

describe("resolveSelection", () => {
  const offered = [course(1, 40), course(2, 30), course(3, 8), course(4, 4), course(5, 2)];
  it("keeps courses within the cap and names the first refusal in the table's words, with the course refused", () => {
    const form = read("level=100&pick=1&pick=2&pick=3&pick=5");
    const { selected, notice } = resolveSelection(form, offered, []);
    expect(selected.map((entry) => entry.course_id)).toEqual([1, 2, 3, 5]);
    expect(notice).toBeNull();
    const over = resolveSelection(read("level=100&pick=1&pick=2&pick=3&pick=4"), offered, []);
    expect(over.selected.map((entry) => entry.course_id)).toEqual([1, 2, 3]);
    expect(over.notice).toEqual({
      text: "Cannot exceed maximum of 80 units",
      tone: "error",
      place: "table",
      courseId: 4,
    });
  });
  it("counts the session's registrations and answers a search pick in the modal's words", () => {
    const registered = [course(9, 40)];
    const over = resolveSelection(read("level=100&sel_level=100&sel=2&add=1"), offered, registered);
    expect(over.notice).toEqual({
      text: "Cannot exceed maximum of 80 units!",
      tone: "error",
      place: "dialog",
      courseId: 1,
    });
    const twice = resolveSelection(
      read("level=100&sel_level=100&sel=3&add=3"),
      offered,
      registered,
    );
    expect(twice.selected).toHaveLength(1);
    expect(twice.notice?.text).toBe("Course already selected!");
  });
  it("leaves out a course not offered at the level, saying so", () => {
    const { selected, notice } = resolveSelection(read("level=100&pick=99&pick=5"), offered, []);
    expect(selected.map((entry) => entry.course_id)).toEqual([5]);
    expect(notice?.text).toBe(
      "A course you chose is not offered to your programme at 100 level; it was left out.",
    );
  });
});

describe("searchStatus", () => {
  it.each([
    ["", null, ""],
    ["E", null, "Type at least 2 characters."],
    ["EN", [], "No course code contains “EN”."],
    ["EN", [1], ""],
  ])("%j", (code, results, expected) => expect(searchStatus(code, results)).toBe(expected));
});

describe("carry-overs in the picker's form (decision 180)", () => {
  const carried = { ...course(90, 3), carry_over: true };
  const offered = [course(1, 4), course(2, 3), course(90, 3)];

  it("selects a required carry-over first, whatever the form sends, and no other course twice", () => {
    const untickedAndDropped = read("sel_level=100&sel=90&sel=1&shown=90&shown=1&pick=1&drop=90");
    const { selected, notice } = resolveSelection(untickedAndDropped, offered, [], [carried]);
    expect(selected.map((each) => each.course_id)).toEqual([90, 1]);
    expect(notice).toBeNull();
  });

  it("registers the carry-over with the courses asked for", () => {
    expect(registrationCourseIds(read("pick=2&pick=90"), [carried])).toEqual([90, 2]);
    expect(registrationCourseIds(read("pick=2"), [])).toEqual([2]);
  });

  it("counts the carry-over against the cap before the student's picks", () => {
    const registered = [{ ...course(50, 76), registration_level: 100 }];
    const { selected, notice } = resolveSelection(read("pick=1"), offered, registered, [carried]);
    expect(selected.map((each) => each.course_id)).toEqual([90]);
    expect(notice).toMatchObject({ text: "Cannot exceed maximum of 80 units", courseId: 1 });
  });
});
