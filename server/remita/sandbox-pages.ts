import { escapeHtml, formatAmount } from "../paystack/sandbox-checkout-page.ts";
import type { SandboxInvoice } from "./sandbox-store.ts";
import { writeRemitaTime } from "./responses.ts";

// The Remita sandbox's pages: no scripts, no external assets, plain forms, so they work on any
// browser and without JavaScript. They stand in for Remita's payment page and for a bank's
// counter, and say so on every page.

const STYLE = `
:root { color-scheme: light; font-family: system-ui, sans-serif; line-height: 1.5; color: #1a1a1a; background: #f4f5f7; }
body { margin: 0; padding: 1rem; }
main { max-width: 30rem; margin: 0 auto; background: #fff; border-radius: 0.75rem; padding: 1.5rem; box-shadow: 0 1px 4px rgb(0 0 0 / 12%); }
h1 { font-size: 1.5rem; margin: 0 0 1rem; }
h2 { font-size: 1.125rem; margin: 1.5rem 0 0.5rem; }
.notice { background: #fff4ce; border: 2px solid #8a6d00; border-radius: 0.5rem; padding: 0.75rem 1rem; margin: 0 0 1rem; }
dl { display: grid; grid-template-columns: auto 1fr; gap: 0.25rem 1rem; margin: 0; }
dt { font-weight: 600; }
dd { margin: 0; overflow-wrap: anywhere; }
.amount { font-size: 1.5rem; font-weight: 700; }
form { margin: 0.75rem 0 0; }
button { width: 100%; min-height: 3rem; font: inherit; font-size: 1.125rem; font-weight: 600; border-radius: 0.5rem; border: 2px solid #1a1a1a; background: #fff; color: #1a1a1a; cursor: pointer; }
button.pay { background: #b3261e; border-color: #b3261e; color: #fff; }
button:focus-visible, input:focus-visible { outline: 3px solid #1d4ed8; outline-offset: 3px; }
label { display: block; font-weight: 600; margin: 0.75rem 0 0; }
input[type=number] { box-sizing: border-box; width: 100%; min-height: 3rem; font: inherit; margin: 0.25rem 0 0; padding: 0 0.75rem; border: 2px solid #1a1a1a; border-radius: 0.5rem; }
.check { display: flex; gap: 0.5rem; align-items: center; font-weight: 400; }
.check input { width: 1.5rem; height: 1.5rem; }
.hint { margin: 0.25rem 0 0; font-size: 0.9rem; color: #444; }
`;

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

function choice(action: string, label: string, hint: string, id: string, className = ""): string {
  const classAttribute = className ? ` class="${className}"` : "";
  return `<form method="post" action="${escapeHtml(action)}">
    <button type="submit"${classAttribute} aria-describedby="${id}-hint">${label}</button>
    <p class="hint" id="${id}-hint">${hint}</p>
  </form>`;
}

/** The stand-in for Remita's payment page, reached by the form posted to finalize.reg. */
export function renderFinalizePage(invoice: SandboxInvoice): string {
  // Relative to /remita/ecomm/finalize.reg, so it works wherever the sandbox is reached.
  const action = (outcome: string) => `finalize/${invoice.rrr}/${outcome}`;
  const payable = invoice.status === "pending" || invoice.status === "failed";
  const choices = payable
    ? `<h2>Choose what happens</h2>
  ${choice(action("pay"), `Pay ${formatAmount(invoice.amountKobo, "NGN")}`, "The card payment succeeds; the portal gets Remita's notification.", "pay", "pay")}
  ${choice(action("decline"), "Decline the card", "The bank refuses the card. The RRR can still be paid.", "decline")}
  ${choice(action("abandon"), "Abandon", "As if the student closed Remita's page without paying.", "abandon")}`
    : `${choice(action("abandon"), "Return to the college portal", "Nothing more can be done with this RRR here.", "back", "pay")}`;
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

function page(title: string, content: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
  <p class="notice" role="note"><strong>Test sandbox.</strong> This is not Remita and no money
  moves: nothing is charged, whatever you choose.</p>
  ${content}
</main>
</body>
</html>`;
}
