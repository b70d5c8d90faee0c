import { apiRequest, ApiFailure } from "../api/browser-api.client.ts";
import { rememberStudent } from "../stores/student.ts";
import type { StudentRecord } from "../../../common/students/student-record.ts";
import { removeStandingToast, showStandingToast, showToast } from "../ui/toast.ts";
import { refocus } from "../ui/refocus.ts";

type LoginAnswer = { data: { tokens: { student: StudentRecord } } };

/**
 * How many times in a row a busy portal's answer is followed by trying again without the student:
 * about three minutes at the 5–10 s a busy portal asks for (decision 112).
 */
const BUSY_RETRIES = 20;

/** The toast that shows the student's place while they wait in line. */
const LINE_TOAST = "line";

/**
 * Takes over the sign-in form once scripts run: idle → spinner → dashboard or 'Failed, try again'.
 * When the portal answers that it is busy, the form says so and sends itself again after the time
 * the portal named: at a deadline a student should not have to keep pressing the button. A place
 * in the line at the door (decision 193) is shown as the line wrote it and tried again without
 * limit: the line always moves on, and giving up would leave the student to press the button
 * for a turn that has come.
 */
export function signInFromForm(form: HTMLFormElement) {
  const button = form.querySelector<HTMLButtonElement>("button[type=submit]")!;
  const next = new FormData(form).get("next")?.toString() ?? "/";
  form.dataset.enhanced = "true";
  let busyAnswers = 0;
  let retry: ReturnType<typeof setTimeout> | undefined;

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clearTimeout(retry);
    const fields = new FormData(form);
    const focused = document.activeElement;
    button.disabled = true;
    button.innerHTML = '<span class="spinner" role="status" aria-label="Signing in"></span>';
    try {
      const answer = await apiRequest<LoginAnswer>("/student/uniben/login", {
        method: "POST",
        json: { username: fields.get("username"), password: fields.get("password") },
      });
      removeStandingToast(LINE_TOAST);
      rememberStudent(answer.data.tokens.student);
      // 'Login successful' shows on the next page (the proxy leaves it a flash cookie).
      window.location.assign(next);
    } catch (error) {
      button.disabled = false;
      refocus(focused);
      const failure = error instanceof ApiFailure ? error : null;
      const waitSeconds = failure?.status === 503 ? failure.retryAfterSeconds : null;
      if (failure && waitSeconds !== null && failure.placeInLine !== null) {
        // A place in line is progress: busy answers before it no longer count towards giving up.
        busyAnswers = 0;
        button.textContent = "In line: trying again…";
        showStandingToast(
          LINE_TOAST,
          `${failure.message} This page tries again by itself, so you do not need to press anything.`,
        );
        retry = setTimeout(() => form.requestSubmit(), waitSeconds * 1000);
        return;
      }
      removeStandingToast(LINE_TOAST);
      if (waitSeconds !== null && busyAnswers < BUSY_RETRIES) {
        busyAnswers += 1;
        button.textContent = "Portal busy: trying again…";
        showToast(
          `The portal is busy. Signing in again in ${waitSeconds} seconds; you do not need to press anything.`,
          "info",
        );
        retry = setTimeout(() => form.requestSubmit(), waitSeconds * 1000);
        return;
      }
      busyAnswers = 0;
      button.textContent = "Failed, try again";
      showToast(failure ? failure.message : "Sign-in failed. Please try again.", "error");
    }
  });
}
