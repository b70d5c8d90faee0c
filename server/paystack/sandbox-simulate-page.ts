import { escapeHtml, formatAmount, sandboxPage } from "../http/sandbox-page.ts";
import type { SandboxTransaction } from "./sandbox-store.ts";

/** What became of a webhook the sandbox sent, as the simulate page reports it. */
export type WebhookDelivery = "delivered" | "failed";

// The developer's stand-in for the student's bank: no scripts, one plain form.

const TITLE = "Paystack sandbox: pay a transfer or USSD charge";

/** A pending bank-transfer or USSD charge, with the form that makes the payment arrive. */
export function renderSimulatePage(transaction: SandboxTransaction, how: string): string {
  const amount = formatAmount(transaction.amountKobo, transaction.currency);
  const naira = (transaction.amountKobo / 100).toFixed(2);
  const action = escapeHtml(encodeURIComponent(transaction.reference));
  const verb = transaction.channel === "ussd" ? "Confirm the USSD payment" : "The transfer arrives";
  const body =
    transaction.status === "success"
      ? `<p>This charge is paid.</p>`
      : `<form method="post" action="${action}">
    <label for="amount">Amount that arrives (naira)</label>
    <input id="amount" name="amount" inputmode="decimal" value="${naira}" aria-describedby="amount-hint">
    <p class="hint" id="amount-hint">Change it to simulate a transfer of the wrong amount.</p>
    <button type="submit" class="pay">${verb}</button>
  </form>`;
  return sandboxPage(
    "Paystack",
    TITLE,
    `<h1>${TITLE}</h1>
  <dl>
    <dt>Amount charged</dt><dd class="amount">${amount}</dd>
    <dt>Reference</dt><dd>${escapeHtml(transaction.reference)}</dd>
    <dt>Channel</dt><dd>${escapeHtml(how)}</dd>
    <dt>Status</dt><dd>${transaction.status === "success" ? "Paid" : "Waiting for the payer"}</dd>
  </dl>
  ${body}`,
  );
}

const WEBHOOK_TEXT: Record<WebhookDelivery | "not sent", string> = {
  delivered: "The signed charge.success webhook was delivered to the portal.",
  failed: "The portal did not accept the webhook; see the server log.",
  "not sent": "It was already paid, so no webhook was sent.",
};

/** After the simulated payment. */
export function renderSimulateDone(
  transaction: SandboxTransaction,
  webhook: WebhookDelivery | "not sent",
): string {
  const arrived = transaction.paidAmountKobo ?? transaction.amountKobo;
  return sandboxPage(
    "Paystack",
    TITLE,
    `<h1>Payment arrived</h1>
  <p role="status">${escapeHtml(transaction.reference)}: ${formatAmount(arrived, transaction.currency)} received. ${WEBHOOK_TEXT[webhook]}</p>`,
  );
}
