import { atom } from "nanostores";
import { BROWSER_SESSION_KEYS } from "../session/cookie.ts";
import type { StudentRecord } from "../students/student-record.ts";

/** The signed-in student as islands share it; mirrored in localStorage "user-info" (spec section 3). */
export const $student = atom<StudentRecord | null>(null);

export function rememberStudent(student: StudentRecord) {
  $student.set(student);
  try {
    localStorage.setItem("user-info", JSON.stringify(student));
  } catch {
    // Private browsing may refuse storage; the cookie session still works without it.
  }
}

/** Forgets everything the browser kept about the session (logout and any 401). */
export function forgetStudent() {
  $student.set(null);
  try {
    for (const key of BROWSER_SESSION_KEYS) localStorage.removeItem(key);
  } catch {
    // Nothing stored, nothing to clear.
  }
}
