// The payment sandboxes' pages (Paystack's checkout, Remita's payment page and bank counter): no
// scripts, no external assets, plain forms, so they work on any browser and without JavaScript,
// and every page says it is a sandbox where no money moves.

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
button.pay { background: var(--accent); border-color: var(--accent); color: #fff; }
button:focus-visible, input:focus-visible { outline: 3px solid #1d4ed8; outline-offset: 3px; }
label { display: block; font-weight: 600; margin: 0.75rem 0 0; }
input:not([type=checkbox]) { box-sizing: border-box; width: 100%; min-height: 3rem; font: inherit; margin: 0.25rem 0 0; padding: 0 0.75rem; border: 2px solid #1a1a1a; border-radius: 0.5rem; }
.check { display: flex; gap: 0.5rem; align-items: center; font-weight: 400; }
.check input { width: 1.5rem; height: 1.5rem; }
.hint { margin: 0.25rem 0 0; font-size: 0.9rem; color: #444; }
`;

/** Each gateway's pay button keeps its own colour (both pass contrast with white text). */
const ACCENT = { Paystack: "#0b6b3a", Remita: "#b3261e" } as const;

/** A whole sandbox page of `gateway` around `content` (already escaped). */
export function sandboxPage(gateway: keyof typeof ACCENT, title: string, content: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>:root { --accent: ${ACCENT[gateway]}; }${STYLE}</style>
</head>
<body>
<main>
  <p class="notice" role="note"><strong>Test sandbox.</strong> This is not ${gateway} and no money
  moves: nothing is charged, whatever you choose.</p>
  ${content}
</main>
</body>
</html>`;
}

/**
 * One choice on a sandbox page: a form posting to `action` with one button, and a hint the button
 * is described by (`id` names the hint; `label` and `hint` are already escaped).
 */
export function sandboxChoice(
  action: string,
  label: string,
  hint: string,
  id: string,
  className = "",
): string {
  const classAttribute = className ? ` class="${className}"` : "";
  return `<form method="post" action="${escapeHtml(action)}">
    <button type="submit"${classAttribute} aria-describedby="${id}-hint">${label}</button>
    <p class="hint" id="${id}-hint">${hint}</p>
  </form>`;
}

export function escapeHtml(text: string): string {
  return text
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");
}

/** "₦1,234,567.50" for 123456750 kobo; other currencies are prefixed with their code. */
export function formatAmount(minorUnits: number, currency: string): string {
  const major = Math.floor(minorUnits / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  const minor = String(minorUnits % 100).padStart(2, "0");
  return `${currency === "NGN" ? "₦" : `${currency} `}${major}.${minor}`;
}
