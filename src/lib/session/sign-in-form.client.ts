import { apiRequest, ApiFailure } from "../api/browser-api.client.ts";
import { rememberStudent } from "../stores/student.ts";
import type { StudentRecord } from "../../../common/students/student-record.ts";
import { showToast } from "../ui/toast.ts";
import { refocus } from "../ui/refocus.ts";

type LoginAnswer = { data: { tokens: { student: StudentRecord } } };

/**
 * How many times in a row a busy portal's answer is followed by trying again without the student:
 * about three minutes at the 5–10 s a busy portal asks for (decision 112).
 */
const BUSY_RETRIES = 20;

/**
 * Takes over the sign-in form once scripts run: idle → spinner → dashboard or 'Failed, try again'.
 * When the portal answers that it is busy, the form says so and sends itself again after the time
 * the portal named: at a deadline a student should not have to keep pressing the button.
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
      rememberStudent(answer.data.tokens.student);
      // 'Login successful' shows on the next page (the proxy leaves it a flash cookie).
      window.location.assign(next);
    } catch (error) {
      button.disabled = false;
      refocus(focused);
      const busy =
        error instanceof ApiFailure && error.status === 503 && error.retryAfterSeconds !== null;
      if (busy && busyAnswers < BUSY_RETRIES) {
        busyAnswers += 1;
        button.textContent = "Portal busy: trying again…";
        showToast(
          `The portal is busy. Signing in again in ${error.retryAfterSeconds} seconds; you do not need to press anything.`,
          "info",
        );
        retry = setTimeout(() => form.requestSubmit(), error.retryAfterSeconds! * 1000);
        return;
      }
      busyAnswers = 0;
      button.textContent = "Failed, try again";
      showToast(
        error instanceof ApiFailure ? error.message : "Sign-in failed. Please try again.",
        "error",
      );
    }
  });
}
