// Apart from the zod contracts, so the complaint form's script stays free of zod.
import { formatSlipDate } from "../format/dates.ts";

/** The spec's success sentence ("Successful! Complaint has been sent"), then the ticket number. */
export const sentWithTicket = (sent: string, ticket: string) =>
  `${sent}. Your ticket number is ${ticket}.`;

/** What each status of a complaint reads as (decision 105). */
export const COMPLAINT_STATUS_LABELS = {
  open: "Open",
  answered: "Answered",
  closed: "Closed",
} as const;

/** The line under a complaint's subject: "CMP-ABC234 · Open · sent 05/09/2024 14:07". */
export const complaintMeta = (complaint: {
  ticket: string;
  status: keyof typeof COMPLAINT_STATUS_LABELS;
  created_at: string;
}) =>
  `${complaint.ticket} · ${COMPLAINT_STATUS_LABELS[complaint.status]} · sent ${formatSlipDate(complaint.created_at)}`;
