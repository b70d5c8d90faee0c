import { apiRequest, ApiFailure } from "../api/browser-api.client.ts";
import { showToast } from "../ui/toast.ts";
import { refocus } from "../ui/refocus.ts";

/**
 * Takes over the Forgot Password form once scripts run: 'Reset' → 'Loading...' → 'Reset' with
 * the 'Check your email' box, or 'Failed, try again' with the server's message in a toast.
 */
export function requestResetFromForm(form: HTMLFormElement, notice: HTMLElement) {
  const button = form.querySelector<HTMLButtonElement>("button[type=submit]")!;
  form.dataset.enhanced = "true";

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const fields = new FormData(form);
    const focused = document.activeElement;
    button.disabled = true;
    button.textContent = "Loading...";
    try {
      await apiRequest("/password/request-reset-email/", {
        method: "POST",
        json: { email: fields.get("email"), redirect_url: fields.get("redirect_url") },
      });
      button.textContent = "Reset";
      notice.hidden = false;
      notice.focus();
    } catch (error) {
      button.textContent = "Failed, try again";
      const text =
        error instanceof ApiFailure
          ? error.message
          : "The reset link was not sent. Please try again.";
      showToast(text, "error");
    } finally {
      button.disabled = false;
      refocus(focused);
    }
  });

  // Without scripts the close control is a link back to the bare page; here it just hides.
  notice.querySelector("[data-dismiss]")?.addEventListener("click", (event) => {
    event.preventDefault();
    notice.hidden = true;
  });
}
