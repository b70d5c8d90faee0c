import type { SandboxTransaction } from "./sandbox-store.ts";

// Self-contained pages: no scripts, no external assets, plain forms, so the sandbox
// checkout works on any browser and without JavaScript.

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
button.pay { background: #0b6b3a; border-color: #0b6b3a; color: #fff; }
button:focus-visible { outline: 3px solid #1d4ed8; outline-offset: 3px; }
label { display: block; font-weight: 600; }
input { box-sizing: border-box; width: 100%; min-height: 3rem; font: inherit; margin: 0.25rem 0 0; padding: 0 0.75rem; border: 2px solid #1a1a1a; border-radius: 0.5rem; }
.hint { margin: 0.25rem 0 0; font-size: 0.9rem; color: #444; }
`;

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
  const action = (outcome: string) => escapeHtml(`${transaction.accessCode}/${outcome}`);
  const choices =
    transaction.status === "success"
      ? `<p>This payment is complete.</p>
  <form method="post" action="${action("abandon")}"><button type="submit" class="pay">Return to the college portal</button></form>`
      : `<h2>Choose what happens</h2>
  ${choice(action("pay"), `Pay ${amount}`, "The payment succeeds; the portal gets a signed webhook.", "pay")}
  ${choice(action("decline"), "Decline the card", "The bank refuses the payment.")}
  ${choice(action("abandon"), "Cancel without paying", "As if the student closed the checkout.")}`;

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

/** "₦1,234,567.50" for 123456750 kobo; other currencies are prefixed with their code. */
export function formatAmount(minorUnits: number, currency: string): string {
  const major = Math.floor(minorUnits / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  const minor = String(minorUnits % 100).padStart(2, "0");
  return `${currency === "NGN" ? "₦" : `${currency} `}${major}.${minor}`;
}

function choice(action: string, label: string, hint: string, className = ""): string {
  const hintId = `${action.split("/").pop()}-hint`;
  const classAttribute = className ? ` class="${className}"` : "";
  return `<form method="post" action="${action}">
    <button type="submit"${classAttribute} aria-describedby="${hintId}">${label}</button>
    <p class="hint" id="${hintId}">${hint}</p>
  </form>`;
}

/** A whole sandbox page around `content` (already escaped). */
export function page(title: string, content: string): string {
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
  <p class="notice" role="note"><strong>Test sandbox.</strong> This is not Paystack and no money
  moves: nothing is charged, whatever you choose.</p>
  ${content}
</main>
</body>
</html>`;
}

export function escapeHtml(text: string): string {
  return text
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");
}
