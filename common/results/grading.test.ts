import { describe, expect, it } from "vitest";
import {
  carryOvers,
  certificateClass,
  gradeCourse,
  NCE_SCHEME,
  pointAverage,
  schemeProblem,
  scoreProblem,
  semesterResults,
  type Attempt,
  type CourseScore,
  type GradingScheme,
} from "./grading.ts";

const grade = (ca: number, exam: number) => gradeCourse(NCE_SCHEME, { ca, exam });

describe("grading a course on the NCE scale", () => {
  it.each([
    [100, "A", 5],
    [70, "A", 5],
    [69, "B", 4],
    [60, "B", 4],
    [59, "C", 3],
    [50, "C", 3],
    [49, "D", 2],
    [45, "D", 2],
    [44, "E", 1],
    [40, "E", 1],
    [39, "F", 0],
    [0, "F", 0],
  ])("a total of %i is %s (%i points)", (total, letter, point) => {
    const ca = Math.min(total, 40);
    expect(grade(ca, total - ca)).toEqual({
      total,
      grade: letter,
      point,
      passed: point >= 1,
    });
  });

  it("records ABS as a failure at 0 points, and I and S as waiting, outside the GPA", () => {
    expect(gradeCourse(NCE_SCHEME, { ca: 25, special: "ABS" })).toEqual({
      total: null,
      grade: "ABS",
      point: 0,
      passed: false,
    });
    for (const special of ["I", "S"] as const) {
      expect(gradeCourse(NCE_SCHEME, { ca: null, special })).toEqual({
        total: null,
        grade: special,
        point: null,
        passed: false,
      });
    }
  });
});

describe("scores a lecturer may enter", () => {
  it.each<[CourseScore, string | null]>([
    [{ ca: 40, exam: 60 }, null],
    [{ ca: 0, exam: 0 }, null],
    [{ ca: 41, exam: 10 }, "CA must be a whole number from 0 to 40."],
    [{ ca: 10, exam: 61 }, "Exam must be a whole number from 0 to 60."],
    [{ ca: -1, exam: 10 }, "CA must be a whole number from 0 to 40."],
    [{ ca: 12.5, exam: 10 }, "CA must be a whole number from 0 to 40."],
    [{ ca: null, special: "S" }, null],
    [{ ca: 45, special: "ABS" }, "CA must be a whole number from 0 to 40."],
  ])("%j → %s", (score, problem) => {
    expect(scoreProblem(NCE_SCHEME, score)).toBe(problem);
  });
});

describe("a grading scheme the college edits", () => {
  it("is the NCE scale by default, and valid", () => {
    expect(schemeProblem(NCE_SCHEME)).toBeNull();
  });

  it.each<[string, Partial<GradingScheme>, string]>([
    ["a split that is not 100", { caMax: 30 }, "CA and exam must add up to 100 marks."],
    [
      "a gap between bands",
      {
        bands: [
          { min: 50, max: 100, grade: "P", point: 1 },
          { min: 0, max: 48, grade: "F", point: 0 },
        ],
      },
      "Grade F must start where the band above ends (at 49).",
    ],
    [
      "bands that stop above 0",
      { bands: [{ min: 40, max: 100, grade: "P", point: 1 }] },
      "The lowest grade must reach down to 0.",
    ],
    [
      "a pass mark no band has",
      { passPoint: 3.5 },
      "The pass mark must be one of the grade points.",
    ],
  ])("refuses %s", (_, change, problem) => {
    expect(schemeProblem({ ...NCE_SCHEME, ...change })).toBe(problem);
  });
});

describe("point averages to two decimal places", () => {
  it("rounds half up, exactly, from whole quality points and units", () => {
    expect(pointAverage(469, 200)).toBe(2.35); // 2.345
    expect(pointAverage(293, 125)).toBe(2.34); // 2.344
    expect(pointAverage(100, 30)).toBe(3.33); // 3.333…
    expect(pointAverage(50, 15)).toBe(3.33); // 3.333…
    expect(pointAverage(83, 18)).toBe(4.61); // 4.6111…
    expect(pointAverage(0, 0)).toBe(0);
  });
});

function attempt(
  courseCode: string,
  session: string,
  semester: number,
  score: CourseScore,
  extra: Partial<Attempt> = {},
): Attempt {
  return {
    courseCode,
    units: 2,
    session,
    semester,
    compulsory: true,
    planSemester: semester,
    graded: gradeCourse(NCE_SCHEME, score),
    ...extra,
  };
}

describe("semester results", () => {
  const first = [
    attempt("EDU111", "2024/2025", 1, { ca: 30, exam: 45 }, { units: 3 }), // A 5 × 3
    attempt("GSE111", "2024/2025", 1, { ca: 20, exam: 20 }, { units: 2 }), // E 1 × 2
    attempt("BIO111", "2024/2025", 1, { ca: 10, exam: 20 }, { units: 2 }), // F 0 × 2
  ];

  it("gives GPA, CGPA, units and the failed compulsory course to carry over", () => {
    const [result] = semesterResults(NCE_SCHEME, first);
    expect(result).toEqual({
      session: "2024/2025",
      semester: 1,
      gpa: 2.43, // 17 / 7
      cgpa: 2.43,
      units: 7,
      cumulativeUnits: 7,
      standing: "good",
      carryOvers: [{ courseCode: "BIO111", planSemester: 1 }],
    });
  });

  it("counts every attempt of a retaken course by default, and only the best when the scheme says", () => {
    const retaken = [
      ...first,
      attempt("BIO111", "2025/2026", 1, { ca: 30, exam: 30 }, { units: 2 }), // B 4 × 2
    ];
    const every = semesterResults(NCE_SCHEME, retaken).at(-1)!;
    expect(every).toMatchObject({ gpa: 4, cgpa: 2.78, cumulativeUnits: 9, carryOvers: [] }); // 25 / 9
    const best = semesterResults({ ...NCE_SCHEME, retakes: "best-attempt" }, retaken).at(-1)!;
    expect(best).toMatchObject({ cgpa: 3.57, cumulativeUnits: 7 }); // 25 / 7
  });

  it("does not carry over an elective, nor a course that waits on I or S; carries over ABS", () => {
    const attempts = [
      attempt("ELE111", "2024/2025", 1, { ca: 5, exam: 5 }, { compulsory: false }),
      attempt("EDU112", "2024/2025", 1, { ca: null, special: "S" }),
      attempt("EDU113", "2024/2025", 1, { ca: 20, special: "ABS" }),
    ];
    expect(carryOvers(attempts, { session: "2024/2025", semester: 1 })).toEqual([
      { courseCode: "EDU113", planSemester: 1 },
    ]);
    const [result] = semesterResults(NCE_SCHEME, attempts);
    expect(result).toMatchObject({ units: 4, gpa: 0 }); // S is left out until it is completed
  });

  it("keeps a passed course passed when a later attempt of it fails", () => {
    const attempts = [
      attempt("EDU121", "2024/2025", 2, { ca: 30, exam: 30 }),
      attempt("EDU121", "2025/2026", 2, { ca: 5, exam: 5 }),
    ];
    expect(carryOvers(attempts, { session: "2025/2026", semester: 2 })).toEqual([]);
  });

  it("puts a student below the threshold on probation, withdraws them on a second, and restores good standing", () => {
    const fail = (session: string, semester: number) =>
      attempt(
        `F${session}${semester}`,
        session,
        semester,
        { ca: 10, exam: 10 },
        { compulsory: false },
      );
    const pass = (session: string, semester: number, units: number) =>
      attempt(`A${session}${semester}`, session, semester, { ca: 40, exam: 60 }, { units });
    const standings = (attempts: Attempt[]) =>
      semesterResults(NCE_SCHEME, attempts).map((result) => result.standing);

    expect(standings([fail("2024/2025", 1), fail("2024/2025", 2)])).toEqual([
      "probation",
      "withdrawal",
    ]);
    expect(standings([fail("2024/2025", 1), pass("2024/2025", 2, 10)])).toEqual([
      "probation",
      "good",
    ]);
  });
});

describe("class of certificate", () => {
  it.each([
    [5, "Distinction"],
    [4.5, "Distinction"],
    [4.49, "Credit"],
    [3.5, "Credit"],
    [3.49, "Merit"],
    [2.4, "Merit"],
    [2.39, "Pass"],
    [1.5, "Pass"],
    [1.49, "Fail"],
    [0, "Fail"],
  ])("a CGPA of %s is %s", (cgpa, name) => {
    expect(certificateClass(NCE_SCHEME, cgpa)).toBe(name);
  });
});
