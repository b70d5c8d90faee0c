import { apiRequest, ApiFailure } from "../api/browser-api.client.ts";
import { showToast } from "../ui/toast.ts";
import { refocus } from "../ui/refocus.ts";

/**
 * Takes over the Requery buttons of the payments table once scripts run: one JSON call instead
 * of a form post, a 'Verification Failed' toast with the reason shown in `status`, and the page
 * again with the plain form's "verified" message when the payment is verified. Until then each
 * form posts to the page like plain HTML.
 */
export function requeryFromForms(forms: Iterable<HTMLFormElement>, status: HTMLElement) {
  for (const form of forms) {
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const reference = new FormData(form).get("reference")?.toString().trim() ?? "";
      if (!reference) {
        window.alert("No Payment Reference Found");
        return;
      }
      const button = form.querySelector("button")!;
      // innerHTML, not text: the label carries a visually hidden reference for screen readers.
      const label = button.innerHTML;
      const focused = document.activeElement;
      button.disabled = true;
      button.textContent = "Checking…";
      try {
        await apiRequest(`/paystack/verify/${encodeURIComponent(reference)}`);
        // A reload would keep the scroll position, far from the message at the top on a phone.
        const verified = new URL(
          String(new FormData(form).get("return_to") ?? ""),
          window.location.href,
        );
        verified.searchParams.set("requery", "verified");
        verified.searchParams.set("ref", reference);
        window.location.replace(verified);
      } catch (error) {
        showToast("Verification Failed", "error");
        status.hidden = false;
        status.textContent = `Verification Failed: ${error instanceof ApiFailure ? error.message : String(error)}`;
        button.disabled = false;
        button.innerHTML = label;
        refocus(focused);
        // The reason is at the top of the page, a long way above the button on a phone.
        status.scrollIntoView({ block: "start" });
      }
    });
  }
}
