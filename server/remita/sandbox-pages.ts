import { escapeHtml, formatAmount, sandboxChoice, sandboxPage } from "../http/sandbox-page.ts";
import type { SandboxInvoice } from "./sandbox-store.ts";
import { writeRemitaTime } from "./responses.ts";

// Stands in for Remita's payment page and for a bank's counter.
const page = (title: string, content: string) => sandboxPage("Remita", title, content);

const STATUS_TEXT: Record<SandboxInvoice["status"], string> = {
  pending: "Not paid yet",
  failed: "Card declined; the RRR can still be paid",
  paid: "Paid",
  cancelled: "Deactivated: it can no longer be paid",
};

/** "1234 5678 9012": an RRR as invoices print it. */
export const groupedRrr = (rrr: string) => rrr.replace(/(\d{4})(?=\d)/g, "$1 ");

function details(invoice: SandboxInvoice): string {
  const items = invoice.lineItems?.length
    ? `<dt>Split</dt><dd>${invoice.lineItems
        .map(
          (item) =>
            `${escapeHtml(item.beneficiaryName)} ${formatAmount(item.amountKobo, "NGN")}${item.deductFeeFrom === "1" ? " (bears the charge)" : ""}`,
        )
        .join("<br>")}</dd>`
    : "";
  const arriving = invoice.arrivesAt
    ? `<dt>Bank payment</dt><dd>Arrives ${escapeHtml(writeRemitaTime(invoice.arrivesAt))} (West Africa Time)</dd>`
    : "";
  return `<dl>
    <dt>RRR</dt><dd>${groupedRrr(invoice.rrr)}</dd>
    <dt>Amount</dt><dd class="amount">${formatAmount(invoice.amountKobo, "NGN")}</dd>
    <dt>Payer</dt><dd>${escapeHtml(invoice.payerName)}</dd>
    <dt>For</dt><dd>${escapeHtml(invoice.description)}</dd>
    <dt>Order</dt><dd>${escapeHtml(invoice.orderId)}</dd>
    ${items}
    <dt>Status</dt><dd>${STATUS_TEXT[invoice.status]}</dd>
    ${arriving}
  </dl>`;
}

/** The stand-in for Remita's payment page, reached by the form posted to finalize.reg. */
export function renderFinalizePage(invoice: SandboxInvoice): string {
  // Relative to /remita/ecomm/finalize.reg, so it works wherever the sandbox is reached.
  const action = (outcome: string) => `finalize/${invoice.rrr}/${outcome}`;
  const payable = invoice.status === "pending" || invoice.status === "failed";
  const choices = payable
    ? `<h2>Choose what happens</h2>
  ${sandboxChoice(action("pay"), `Pay ${formatAmount(invoice.amountKobo, "NGN")}`, "The card payment succeeds; the portal gets Remita's notification.", "pay", "pay")}
  ${sandboxChoice(action("decline"), "Decline the card", "The bank refuses the card. The RRR can still be paid.", "decline")}
  ${sandboxChoice(action("abandon"), "Abandon", "As if the student closed Remita's page without paying.", "abandon")}`
    : `${sandboxChoice(action("abandon"), "Return to the college portal", "Nothing more can be done with this RRR here.", "back", "pay")}`;
  return page("Remita sandbox: pay an RRR", `<h1>Pay an RRR</h1>${details(invoice)}${choices}`);
}

/** Why finalize.reg would not show a payment page. */
export function renderRefused(reason: string): string {
  return page(
    "Remita sandbox: payment not opened",
    `<h1>This payment could not be opened</h1>
  <p role="alert">${escapeHtml(reason)}</p>
  <p>Go back to the college portal and open the payment again.</p>`,
  );
}

/** After a choice, for an invoice that was given no response URL. */
export function renderNowhereToReturn(invoice: SandboxInvoice): string {
  return page(
    "Remita sandbox",
    `<h1>Remita sandbox</h1>${details(invoice)}
  <p>No response URL was given, so there is nowhere to return to. You can close this tab.</p>`,
  );
}

/** A bank's counter: pay an RRR now or after a delay, with or without Remita's notification. */
export function renderBankPage(invoice: SandboxInvoice): string {
  const payable = invoice.status === "pending" || invoice.status === "failed";
  const form = payable
    ? `<form method="post" action="${escapeHtml(invoice.rrr)}">
    <label for="minutes">Minutes until the payment reaches Remita</label>
    <input type="number" id="minutes" name="minutes" min="0" max="525600" step="1" value="0" aria-describedby="minutes-hint">
    <p class="hint" id="minutes-hint">0 pays it now. 4320 is three days: the portal's reconciler should find it without anyone pressing anything.</p>
    <label class="check"><input type="checkbox" name="notify" value="1" checked> Send Remita's notification to the portal</label>
    <p class="hint">Untick to lose the notification on the way.</p>
    <button type="submit" class="pay">Pay at the bank</button>
  </form>`
    : "";
  return page(
    "Remita sandbox: pay an RRR at a bank",
    `<h1>Pay an RRR at a bank branch</h1>${details(invoice)}${form}`,
  );
}

/** After a bank payment: paid now, or on its way. */
export function renderBankDone(invoice: SandboxInvoice, notification: string): string {
  const what =
    invoice.status === "paid"
      ? `Paid. ${escapeHtml(notification)}`
      : "The payment is on its way and reaches Remita at the time shown.";
  return page(
    "Remita sandbox: pay an RRR at a bank",
    `<h1>Bank payment</h1><p role="status">${what}</p>${details(invoice)}`,
  );
}

/** For an RRR the sandbox does not know. */
export function renderUnknownRrr(): string {
  return page(
    "RRR not found · Remita sandbox",
    `<h1>RRR not found</h1>
  <p>The sandbox has no invoice with this RRR. Check the twelve digits, or generate it again from the college portal.</p>`,
  );
}
