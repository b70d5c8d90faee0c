import { html } from "hono/html";

type Html = ReturnType<typeof html>;

// Only http(s) is ever turned into a link, so "javascript:" and friends stay inert text.
const WEB_ADDRESS = /\bhttps?:\/\/[^\s<>"']+/gi;
// Sentence punctuation right after an address belongs to the sentence, not the address.
const TRAILING_PUNCTUATION = /[.,;:!?)\]]+$/;

/**
 * Plain text as HTML: everything escaped, and each http/https address made a link.
 * Interpolate the result into a hono `html` template (e.g. inside a `<pre>`).
 */
export function linkText(text: string): Array<string | Html> {
  const parts: Array<string | Html> = [];
  let position = 0;
  for (const match of text.matchAll(WEB_ADDRESS)) {
    const address = match[0].replace(TRAILING_PUNCTUATION, "");
    if (!URL.canParse(address)) continue;
    parts.push(text.slice(position, match.index));
    parts.push(html`<a href="${address}">${address}</a>`);
    position = match.index + address.length;
  }
  parts.push(text.slice(position));
  return parts;
}
