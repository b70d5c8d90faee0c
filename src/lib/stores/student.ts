import { atom } from "nanostores";
import { BROWSER_SESSION_KEYS } from "../../../common/session/cookie.ts";
import type { StudentRecord } from "../../../common/students/student-record.ts";

/**
 * What the browser keeps about the signed-in student: who it is, nothing personal. Pages get the
 * rest from the server with their HTML, so phone, e-mail and date of birth never sit in storage a
 * later user of a shared computer could read.
 */
export type RememberedStudent = Pick<StudentRecord, "id" | "othername">;

/** The signed-in student as islands share it; mirrored in sessionStorage "user-info" (spec section 3). */
export const $student = atom<RememberedStudent | null>(null);

export function rememberStudent({ id, othername }: StudentRecord) {
  const student = { id, othername };
  $student.set(student);
  try {
    // sessionStorage, not localStorage: it goes when the browser closes.
    sessionStorage.setItem("user-info", JSON.stringify(student));
  } catch {
    // Private browsing may refuse storage; the cookie session still works without it.
  }
}

/** Forgets everything the browser kept about the session, in both storages (logout and any 401). */
export function forgetStudent() {
  $student.set(null);
  try {
    for (const key of BROWSER_SESSION_KEYS) {
      sessionStorage.removeItem(key);
      localStorage.removeItem(key);
    }
  } catch {
    // Nothing stored, nothing to clear.
  }
}
