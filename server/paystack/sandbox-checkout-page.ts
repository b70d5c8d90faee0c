import { escapeHtml, formatAmount, sandboxChoice, sandboxPage } from "../http/sandbox-page.ts";
import type { SandboxTransaction } from "./sandbox-store.ts";

const page = (title: string, content: string) => sandboxPage("Paystack", title, content);

const STATUS_TEXT: Record<SandboxTransaction["status"], string> = {
  abandoned: "Not paid yet",
  pending: "Waiting for a bank transfer or USSD payment",
  failed: "Declined. You can try again.",
  success: "Paid",
  reversed: "Paid, then refunded or reversed",
};

/** The sandbox's stand-in for Paystack's hosted checkout. */
export function renderCheckoutPage(transaction: SandboxTransaction): string {
  const amount = formatAmount(transaction.amountKobo, transaction.currency);
  // Relative actions keep working wherever the sandbox is mounted: /x/checkout/CODE -> /x/checkout/CODE/pay.
  const target = (outcome: string) => `${transaction.accessCode}/${outcome}`;
  const choices =
    transaction.status === "success"
      ? `<p>This payment is complete.</p>
  <form method="post" action="${escapeHtml(target("abandon"))}"><button type="submit" class="pay">Return to the college portal</button></form>`
      : `<h2>Choose what happens</h2>
  ${sandboxChoice(target("pay"), `Pay ${amount}`, "The payment succeeds; the portal gets a signed webhook.", "pay", "pay")}
  ${sandboxChoice(target("decline"), "Decline the card", "The bank refuses the payment.", "decline")}
  ${sandboxChoice(target("abandon"), "Cancel without paying", "As if the student closed the checkout.", "abandon")}`;

  return page(
    "Paystack sandbox checkout",
    `<h1>Paystack sandbox checkout</h1>
  <dl>
    <dt>Amount</dt><dd class="amount">${amount}</dd>
    <dt>E-mail</dt><dd>${escapeHtml(transaction.email)}</dd>
    <dt>Reference</dt><dd>${escapeHtml(transaction.reference)}</dd>
    <dt>Status</dt><dd>${STATUS_TEXT[transaction.status]}</dd>
  </dl>
  ${choices}`,
  );
}

/** Shown for an access code the sandbox does not know. */
export function renderCheckoutNotFound(): string {
  return page(
    "Checkout not found · Paystack sandbox checkout",
    `<h1>Checkout not found</h1>
  <p>The sandbox does not know this checkout link. Check that you copied all of it, or go back
  to the college portal and start the payment again.</p>`,
  );
}

/** Shown after a choice when the transaction was initialized without a callback URL. */
export function renderCheckoutDone(transaction: SandboxTransaction): string {
  return page(
    "Paystack sandbox checkout",
    `<h1>Paystack sandbox checkout</h1>
  <p>Transaction ${escapeHtml(transaction.reference)}: ${STATUS_TEXT[transaction.status]}.</p>
  <p>No callback URL was given, so there is nowhere to return to. You can close this tab.</p>`,
  );
}
