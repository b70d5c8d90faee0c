/**
 * The rules that turn scores into grades, grade points, GPA, CGPA, academic standing and the class
 * of certificate (issue 32; decision 174). Every figure a student, a lecturer, the head of
 * department or the exams office sees is computed here, on the server, from a grading scheme kept
 * as data: the college edits the scheme, not the code.
 */

/** How a total becomes a grade: `min`–`max` inclusive, whole marks. */
export type GradeBand = { min: number; max: number; grade: string; point: number };

/** A class of certificate from this CGPA upwards (the bands are read from the top). */
export type CertificateClass = { minCgpa: number; name: string };

/**
 * What a course's result can be besides a score: absent from the exam, incomplete, or sick. Each
 * is recorded as such; `countsAsFail` says whether its units count at grade point 0 (and it is
 * carried over), or whether it is left out of the GPA until the course is completed.
 */
export const SPECIAL_MARKS = ["ABS", "I", "S"] as const;
export type SpecialMark = (typeof SPECIAL_MARKS)[number];

/** Which attempts of a course retaken count towards the CGPA. */
export type RetakePolicy = "every-attempt" | "best-attempt";

export type GradingScheme = {
  /** The most a continuous assessment and an exam can score; together they make 100. */
  caMax: number;
  examMax: number;
  /** Highest first; together they cover 0–100 without a gap or an overlap. */
  bands: GradeBand[];
  /** The band a score must reach to pass the course (a lower one is a failure to carry over). */
  passPoint: number;
  special: Record<SpecialMark, { countsAsFail: boolean }>;
  retakes: RetakePolicy;
  /** Below this CGPA a student is on probation; on probation already, they are withdrawn. */
  probationBelowCgpa: number;
  /** Highest first. */
  certificateClasses: CertificateClass[];
};

/**
 * The NCE five-point scale (NCCE minimum standards): A 70–100 (5), B 60–69 (4), C 50–59 (3),
 * D 45–49 (2), E 40–44 (1), F 0–39 (0); Distinction from 4.50, Credit 3.50, Merit 2.40, Pass 1.50.
 */
export const NCE_SCHEME: GradingScheme = {
  caMax: 40,
  examMax: 60,
  bands: [
    { min: 70, max: 100, grade: "A", point: 5 },
    { min: 60, max: 69, grade: "B", point: 4 },
    { min: 50, max: 59, grade: "C", point: 3 },
    { min: 45, max: 49, grade: "D", point: 2 },
    { min: 40, max: 44, grade: "E", point: 1 },
    { min: 0, max: 39, grade: "F", point: 0 },
  ],
  passPoint: 1,
  special: {
    // Missing the exam without leave is a failure; incomplete and sick wait for the result.
    ABS: { countsAsFail: true },
    I: { countsAsFail: false },
    S: { countsAsFail: false },
  },
  retakes: "every-attempt",
  probationBelowCgpa: 1.5,
  certificateClasses: [
    { minCgpa: 4.5, name: "Distinction" },
    { minCgpa: 3.5, name: "Credit" },
    { minCgpa: 2.4, name: "Merit" },
    { minCgpa: 1.5, name: "Pass" },
    { minCgpa: 0, name: "Fail" },
  ],
};

/** Why a scheme cannot be used, or null: bands must cover 0–100 once each, highest first. */
export function schemeProblem(scheme: GradingScheme): string | null {
  if (scheme.caMax + scheme.examMax !== 100) return "CA and exam must add up to 100 marks.";
  let expectedMax = 100;
  for (const band of scheme.bands) {
    if (band.max !== expectedMax)
      return `Grade ${band.grade} must start where the band above ends (at ${expectedMax}).`;
    if (band.min > band.max) return `Grade ${band.grade} ends below where it starts.`;
    expectedMax = band.min - 1;
  }
  if (expectedMax !== -1) return "The lowest grade must reach down to 0.";
  if (!scheme.bands.some((band) => band.point === scheme.passPoint))
    return "The pass mark must be one of the grade points.";
  return null;
}

/** One course's result as entered: whole-mark scores, or a special mark instead of the exam. */
export type CourseScore =
  { ca: number; exam: number } | { ca: number | null; special: SpecialMark };

/** A course's result once graded. `point` is null when it does not count yet (I, S). */
export type GradedCourse = {
  total: number | null;
  grade: string;
  point: number | null;
  passed: boolean;
};

/** Why a score cannot be entered, or null. Marks are whole numbers within the scheme's split. */
export function scoreProblem(scheme: GradingScheme, score: CourseScore): string | null {
  const check = (value: number | null, max: number, what: string) =>
    value === null || (Number.isInteger(value) && value >= 0 && value <= max)
      ? null
      : `${what} must be a whole number from 0 to ${max}.`;
  return (
    check(score.ca, scheme.caMax, "CA") ??
    ("exam" in score ? check(score.exam, scheme.examMax, "Exam") : null)
  );
}

/** The grade and grade point of one course's result, by the scheme's bands. */
export function gradeCourse(scheme: GradingScheme, score: CourseScore): GradedCourse {
  if ("special" in score) {
    const { countsAsFail } = scheme.special[score.special];
    return { total: null, grade: score.special, point: countsAsFail ? 0 : null, passed: false };
  }
  const total = score.ca + score.exam;
  const band = scheme.bands.find((each) => total >= each.min && total <= each.max);
  if (!band) throw new Error(`no grade band holds a total of ${total}`);
  return { total, grade: band.grade, point: band.point, passed: band.point >= scheme.passPoint };
}

/**
 * Quality points over units, to two decimal places, rounded half up. Both are whole numbers, so
 * the rounding is done in whole numbers too: 2.345 is 2.35 exactly, never 2.34 from a float.
 */
export function pointAverage(qualityPoints: number, units: number): number {
  if (units === 0) return 0;
  const hundredths = Math.floor((200 * qualityPoints + units) / (2 * units));
  return hundredths / 100;
}

/** One attempt at a course in a semester, graded. */
export type Attempt = {
  courseCode: string;
  units: number;
  /** Sessions sort as text ("2024/2025"); semesters are 1 and 2. */
  session: string;
  semester: number;
  compulsory: boolean;
  /** The semester of the programme's plan the course belongs to, for carrying it over. */
  planSemester: number;
  graded: GradedCourse;
};

export type SemesterKey = { session: string; semester: number };
const order = (a: SemesterKey, b: SemesterKey) =>
  a.session === b.session ? a.semester - b.semester : a.session < b.session ? -1 : 1;
const sameSemester = (a: SemesterKey, b: SemesterKey) =>
  a.session === b.session && a.semester === b.semester;

/** Totals that make a GPA: grade points times units, and the units that count. */
function totals(attempts: readonly Attempt[]) {
  let qualityPoints = 0;
  let units = 0;
  for (const { graded, units: courseUnits } of attempts) {
    if (graded.point === null) continue;
    qualityPoints += graded.point * courseUnits;
    units += courseUnits;
  }
  return { qualityPoints, units };
}

/** The attempts that count towards the CGPA up to and including `upTo`, by the retake policy. */
function countedAttempts(scheme: GradingScheme, attempts: readonly Attempt[], upTo: SemesterKey) {
  const sofar = attempts.filter((attempt) => order(attempt, upTo) <= 0);
  if (scheme.retakes === "every-attempt") return sofar;
  const best = new Map<string, Attempt>();
  for (const attempt of sofar) {
    const kept = best.get(attempt.courseCode);
    const point = attempt.graded.point ?? -1;
    if (!kept || point > (kept.graded.point ?? -1)) best.set(attempt.courseCode, attempt);
  }
  return [...best.values()];
}

export type Standing = "good" | "probation" | "withdrawal";

export type SemesterResult = SemesterKey & {
  gpa: number;
  cgpa: number;
  /** Units that counted this semester, and in all so far. */
  units: number;
  cumulativeUnits: number;
  standing: Standing;
  /** Compulsory courses failed and not passed since, to register again (oldest first). */
  carryOvers: { courseCode: string; planSemester: number }[];
};

/**
 * Every semester's GPA, CGPA, standing and carry-overs, in order, from all of a student's
 * attempts. Standing follows the CGPA: below the threshold is probation, and a second semester
 * below it in a row is withdrawal.
 */
export function semesterResults(
  scheme: GradingScheme,
  attempts: readonly Attempt[],
): SemesterResult[] {
  const semesters: SemesterKey[] = [];
  for (const attempt of [...attempts].sort(order)) {
    if (!semesters.some((key) => sameSemester(key, attempt)))
      semesters.push({ session: attempt.session, semester: attempt.semester });
  }
  const results: SemesterResult[] = [];
  for (const key of semesters) {
    const own = totals(attempts.filter((attempt) => sameSemester(attempt, key)));
    const cumulative = totals(countedAttempts(scheme, attempts, key));
    const cgpa = pointAverage(cumulative.qualityPoints, cumulative.units);
    const before = results.at(-1)?.standing ?? "good";
    const below = cumulative.units > 0 && cgpa < scheme.probationBelowCgpa;
    results.push({
      ...key,
      gpa: pointAverage(own.qualityPoints, own.units),
      cgpa,
      units: own.units,
      cumulativeUnits: cumulative.units,
      standing: !below ? "good" : before === "good" ? "probation" : "withdrawal",
      carryOvers: carryOvers(attempts, key),
    });
  }
  return results;
}

/** Compulsory courses failed by the end of `upTo` and not passed in a later attempt. */
export function carryOvers(attempts: readonly Attempt[], upTo: SemesterKey) {
  const latest = new Map<string, Attempt>();
  for (const attempt of [...attempts].sort(order)) {
    if (order(attempt, upTo) > 0) break;
    const kept = latest.get(attempt.courseCode);
    // A pass is never undone by a later attempt; otherwise the latest attempt decides.
    if (!kept?.graded.passed) latest.set(attempt.courseCode, attempt);
  }
  return [...latest.values()]
    .filter((attempt) => attempt.compulsory && failed(attempt.graded))
    .map(({ courseCode, planSemester }) => ({ courseCode, planSemester }));
}

/** A result that must be taken again: a failing grade, or a special mark that counts as one. */
const failed = (graded: GradedCourse) => !graded.passed && graded.point !== null;

/** The class of certificate a CGPA earns. */
export function certificateClass(scheme: GradingScheme, cgpa: number): string {
  const found = scheme.certificateClasses.find((each) => cgpa >= each.minCgpa);
  return found?.name ?? scheme.certificateClasses.at(-1)!.name;
}
