import type { ComplaintAnswer } from "../../../common/complaints/complaint.ts";
import { complaintMeta } from "../../../common/complaints/ticket-sentence.ts";

type SentComplaint = ComplaintAnswer["data"] & { message: string };

/**
 * Puts a complaint just sent at the top of "My complaints", from the copy of a list item the
 * page renders in a template: without it the list said "You have not sent a complaint yet."
 * until a reload. Only on the list's first page, where the newest complaint belongs.
 */
export function listSentComplaint(complaint: SentComplaint) {
  const section = document.querySelector<HTMLElement>("[data-my-complaints]");
  const template = section?.querySelector<HTMLTemplateElement>("template[data-complaint-template]");
  const list = section?.querySelector<HTMLElement>(".complaint-list");
  const blank = template?.content.firstElementChild;
  if (!section || !list || !(blank instanceof HTMLElement)) return;
  const item = blank.cloneNode(true) as HTMLElement;
  item.dataset.complaint = complaint.ticket;
  const part = (name: string, text: string) => {
    const element = item.querySelector(`[data-part="${name}"]`);
    if (element) element.textContent = text;
  };
  part("subject", complaint.subject);
  part("meta", complaintMeta(complaint));
  part("message", complaint.message);
  section.querySelector("[data-none-yet]")?.remove();
  list.hidden = false;
  list.prepend(item);
}
