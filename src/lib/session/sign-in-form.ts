import { apiRequest, ApiFailure } from "../api/browser-api.ts";
import { rememberStudent } from "../stores/student.ts";
import type { StudentRecord } from "../students/student-record.ts";
import { showToast } from "../ui/toast.ts";
import { refocus } from "../ui/refocus.ts";

type LoginAnswer = { data: { tokens: { student: StudentRecord } } };

/** Takes over the sign-in form once scripts run: idle → spinner → dashboard or 'Failed, try again'. */
export function signInFromForm(form: HTMLFormElement) {
  const button = form.querySelector<HTMLButtonElement>("button[type=submit]")!;
  const next = new FormData(form).get("next")?.toString() ?? "/";
  form.dataset.enhanced = "true";

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
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
      button.textContent = "Failed, try again";
      refocus(focused);
      showToast(error instanceof ApiFailure ? error.message : "Sign-in failed. Please try again.", "error");
    }
  });
}
