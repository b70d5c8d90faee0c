import { apiRequest, ApiFailure } from "../api/browser-api.client.ts";
import { showToast } from "../ui/toast.ts";
import { refocus } from "../ui/refocus.ts";
import type { ComplaintAnswer } from "../../../common/complaints/complaint.ts";
import { sentWithTicket } from "../../../common/complaints/ticket-sentence.ts";
import { listSentComplaint } from "./list-sent-complaint.client.ts";

/**
 * Takes over the complaint form once scripts run: 'Send Complaint' is disabled while sending,
 * then the success alert shows with the ticket number and both fields clear. Before this runs the form posts as HTML.
 */
export function sendComplaintFromForm(form: HTMLFormElement, status: HTMLElement) {
  const button = form.querySelector<HTMLButtonElement>("button[type=submit]")!;
  const subject = form.elements.namedItem("subject") as HTMLInputElement;
  const message = form.elements.namedItem("message") as HTMLTextAreaElement;
  form.dataset.enhanced = "true";

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const focused = document.activeElement;
    button.disabled = true;
    button.setAttribute("aria-busy", "true");
    status.replaceChildren();
    let sent: HTMLElement | null = null;
    try {
      const answer = await apiRequest<ComplaintAnswer>("/complaint/", {
        method: "POST",
        json: { subject: subject.value, message: message.value },
      });
      // The server stores them trimmed; the list shows what it stored.
      listSentComplaint({ ...answer.data, message: message.value.trim() });
      // Not form.reset(): after a refused plain post the defaults hold the refused text.
      subject.value = "";
      message.value = "";
      const alert = document.createElement("p");
      alert.className = "alert alert-success";
      alert.setAttribute("role", "status");
      // The spec's sentence, then the ticket number the student quotes later.
      alert.textContent = sentWithTicket(answer.message, answer.data.ticket);
      status.append(alert);
      sent = alert;
    } catch (error) {
      const text =
        error instanceof ApiFailure
          ? error.message
          : "Your complaint was not sent. Please try again.";
      showToast(text, "error");
    } finally {
      button.disabled = false;
      button.removeAttribute("aria-busy");
      refocus(focused);
    }
    // The student pressed Send below a long message: on a phone the alert above is off screen.
    // After refocus, whose focus() would scroll back down to the button.
    sent?.scrollIntoView({ block: "nearest" });
  });
}
