/**
 * How one cell of the academic structure is read, the same for a CSV row and a form field:
 * each reader answers the value or the message a registry officer sees.
 */
export type Cell<T> = { value: T } | { problem: string };

export const LEVELS = [100, 200, 300, 400, 500] as const;
/** A single course carries at most this many units (teaching practice and projects included). */
export const MAX_COURSE_UNITS = 10;

const wholeNumber = (text: string) => (/^\d+$/.test(text.trim()) ? Number(text.trim()) : NaN);

export function readUnit(text: string): Cell<number> {
  const unit = wholeNumber(text);
  return unit >= 1 && unit <= MAX_COURSE_UNITS
    ? { value: unit }
    : {
        problem: `The unit must be a whole number from 1 to ${MAX_COURSE_UNITS}; "${text}" is not.`,
      };
}

const SEMESTERS: Record<string, 1 | 2> = { "1": 1, "2": 2, first: 1, second: 2 };

export function readSemester(text: string): Cell<1 | 2> {
  const semester = SEMESTERS[text.trim().toLowerCase()];
  return semester
    ? { value: semester }
    : { problem: `The semester must be 1, 2, first or second; "${text}" is not.` };
}

export function readLevel(text: string): Cell<number> {
  const level = wholeNumber(text);
  return (LEVELS as readonly number[]).includes(level)
    ? { value: level }
    : { problem: `The level must be 100, 200, 300, 400 or 500; "${text}" is not.` };
}

/** "bio111", "BIO  111" and "BIO 111" are one course: letters, one space, then the number. */
export function readCourseCode(text: string): Cell<string> {
  const match = /^([A-Za-z]{2,5})\s*(\d{3,4}[A-Za-z]?)$/.exec(text.trim());
  return match
    ? { value: `${match[1]!.toUpperCase()} ${match[2]!.toUpperCase()}` }
    : {
        problem: `"${text}" is not a course code; codes look like BIO 111 (letters, then the number).`,
      };
}

/** A name with its spaces tidied; `what` names the thing in the message ("faculty name"). */
export function readName(text: string, what: string, max = 120): Cell<string> {
  const name = text.trim().replace(/\s+/g, " ");
  if (!name) return { problem: `The ${what} is empty.` };
  if (name.length > max) return { problem: `The ${what} is longer than ${max} characters.` };
  return { value: name };
}

/** Names are matched without regard to capitals or extra spaces, so "school of sciences" finds its row. */
export const nameKey = (name: string) => name.trim().replace(/\s+/g, " ").toLowerCase();

/** NCE programmes last three years (final year 300 level); degrees four (400). Editable per programme. */
export const defaultFinalLevel = (programmeName: string) =>
  /^\s*NCE\b/i.test(programmeName) ? 300 : 400;
