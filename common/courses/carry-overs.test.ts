import { describe, expect, it } from "vitest";
import {
  carryOverPlan,
  missingCarryOverMessage,
  missingCarryOvers,
  withCarryOvers,
  type CarryOverCourse,
} from "./carry-overs.ts";

const carry = (course_id: number, unit: number, semester: 1 | 2 = 1): CarryOverCourse => ({
  course_id,
  code: `BIO ${course_id}`,
  unit,
  semester,
});
const held = (course_id: number, unit: number, semester = 1) => ({ course_id, unit, semester });
const states = (plan: { code: string; state: string }[]) =>
  plan.map((course) => `${course.code}:${course.state}`);

describe("carryOverPlan", () => {
  it("requires every carry-over not registered, and marks those registered", () => {
    const plan = carryOverPlan([carry(1, 3), carry(2, 4, 2)], [held(1, 3)], new Set());
    expect(states(plan)).toEqual(["BIO 1:registered", "BIO 2:required"]);
  });

  it("lets a carry-over of an approved semester wait, with the reason", () => {
    const [plan] = carryOverPlan([carry(1, 3)], [held(9, 20)], new Set([1]));
    expect(plan!.state).toBe("waiting");
    expect(plan!.waiting_reason).toContain("first semester was approved");
  });

  it("requires the oldest first while they fit beside approved courses; the rest wait", () => {
    // 70 units approved in the second semester leave 10: the 6-unit one fits, then 4 more do not.
    const plan = carryOverPlan(
      [carry(1, 6), carry(2, 5), carry(3, 4)],
      [held(9, 70, 2)],
      new Set([2]),
    );
    expect(states(plan)).toEqual(["BIO 1:required", "BIO 2:waiting", "BIO 3:required"]);
  });

  it("does not let pending courses the student can drop push a carry-over out", () => {
    const plan = carryOverPlan([carry(1, 6)], [held(9, 78)], new Set());
    expect(states(plan)).toEqual(["BIO 1:required"]);
  });

  it("counts carry-overs registered already as room taken", () => {
    const plan = carryOverPlan([carry(1, 78), carry(2, 3)], [held(1, 78)], new Set());
    expect(states(plan)).toEqual(["BIO 1:registered", "BIO 2:waiting"]);
  });
});

describe("missingCarryOvers", () => {
  const plan = carryOverPlan([carry(1, 3, 1), carry(2, 4, 2)], [], new Set());

  it("names the required carry-overs of a semester the registration adds to", () => {
    expect(missingCarryOvers(plan, [held(7, 3, 1)]).map((course) => course.code)).toEqual([
      "BIO 1",
    ]);
    expect(missingCarryOvers(plan, [held(7, 3, 1), held(8, 3, 2)])).toHaveLength(2);
  });

  it("is satisfied when the carry-over is in the registration, or the semester is not touched", () => {
    expect(missingCarryOvers(plan, [held(1, 3, 1), held(7, 3, 1)])).toEqual([]);
    expect(missingCarryOvers(plan, [held(2, 4, 2)])).toEqual([]);
  });

  it("explains itself naming the courses", () => {
    expect(missingCarryOverMessage([{ code: "BIO 113" }])).toBe(
      "Register your carry-over course BIO 113 with this semester's courses: a compulsory course you failed must be taken again. Add it and register again.",
    );
    expect(missingCarryOverMessage([{ code: "BIO 113" }, { code: "CHM 113" }])).toContain(
      "courses BIO 113, CHM 113",
    );
  });
});

describe("withCarryOvers", () => {
  it("puts required carry-overs first and keeps the student's other picks once", () => {
    const picks = [{ course_id: 5 }, { course_id: 1 }, { course_id: 6 }];
    expect(withCarryOvers([{ course_id: 1 }], picks)).toEqual([
      { course_id: 1 },
      { course_id: 5 },
      { course_id: 6 },
    ]);
  });
});
