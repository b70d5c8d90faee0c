import { apiRequest, ApiFailure } from "../api/browser-api.client.ts";
import { showToast } from "../ui/toast.ts";
import { refocus } from "../ui/refocus.ts";
import { OPEN_THE_MAIL_LINK, PASSWORDS_DIFFER } from "../../../common/password/messages.ts";

/**
 * Takes over the Reset Your Password form once scripts run: 'Submit' → 'Loading...' → sign-in
 * page, or 'Failed, try again' with the server's message. The link's uidb64 and token ride on
 * the form's data attributes.
 */
export function completeResetFromForm(form: HTMLFormElement) {
  const button = form.querySelector<HTMLButtonElement>("button[type=submit]")!;
  const { uidb64 = "", token = "" } = form.dataset;
  form.dataset.enhanced = "true";

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const fields = new FormData(form);
    const password = String(fields.get("password") ?? "");
    const confirmation = String(fields.get("confirm_password") ?? "");
    if (!uidb64 || !token) return showToast(OPEN_THE_MAIL_LINK, "info");
    // The error tone, announced as an alert (decision 043).
    if (password !== confirmation) return showToast(PASSWORDS_DIFFER, "error");

    const focused = document.activeElement;
    button.disabled = true;
    button.textContent = "Loading...";
    try {
      const answer = await apiRequest<{ message: string }>("/password/password-reset-complete", {
        method: "PATCH",
        json: { password, confirm_password: confirmation, uidb64, token },
      });
      showToast(answer.message, "success");
      window.location.assign("/login?password_changed=1");
    } catch (error) {
      button.disabled = false;
      button.textContent = "Failed, try again";
      refocus(focused);
      const text =
        error instanceof ApiFailure
          ? error.message
          : "Your password was not changed. Please try again.";
      showToast(text, "error");
    }
  });
}
