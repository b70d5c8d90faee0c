/** A registered course's semester as the API may send it: 1, 2, "1", "2", "first" or "second". */
export type SemesterValue = number | string;

export function semesterNumber(semester: SemesterValue): 1 | 2 | null {
  const value = String(semester).trim().toLowerCase();
  if (value === "1" || value === "first") return 1;
  if (value === "2" || value === "second") return 2;
  return null;
}

/**
 * The dashboard's Course Registration card (spec section 4): nothing registered = NO,
 * first semester only = Started, both = Completed, second only = blank.
 */
export function registrationStatus(courses: readonly { semester: SemesterValue }[]): string {
  const semesters = new Set(courses.map((course) => semesterNumber(course.semester)));
  const first = semesters.has(1);
  const second = semesters.has(2);
  if (first && second) return "Completed";
  if (first) return "Started";
  if (second) return "";
  return "NO";
}

/** The most units a student may register in one session (spec section 9). */
export const MAX_UNITS = 80;

export const totalUnits = (courses: readonly { unit: number | string }[]) =>
  courses.reduce((sum, course) => sum + Number(course.unit), 0);
