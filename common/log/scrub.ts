/**
 * Personal data masked in free text bound for a log: error messages and stacks, a database
 * driver's "params: …", a URL's query. Fields known to hold such data (phone, email, password…)
 * are left out by name (see logger.ts); this catches what slips into text. No node: imports:
 * the proxy, which also runs on edge runtimes, scrubs its lines with it too.
 */

// Nigerian mobile numbers as students write them (08031234567, 0803 123 4567, +234 803 123 4567),
// as in normalizeNigerianPhone; not inside a longer run of letters or digits (a reference, an id).
const PHONE = /(?<![0-9A-Za-z])(?:\+?234[\s().-]*|0)[789][01](?:[\s().-]*\d){8}(?![0-9A-Za-z])/g;
const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g;
// A path or URL followed by a query string: the query goes, the path stays.
const QUERY = /((?:[a-z][a-z0-9+.-]*:\/\/[^\s/?#"'<>]*)?\/[^\s?#"'<>]*)\?[^\s#"'<>]+/gi;
// Drizzle puts a failed query's parameters in its error message: phones, e-mails, hashes.
const QUERY_PARAMS = /^(\s*params:).*$/gim;

export const MASK = "[redacted]";

/** `text` with phone numbers, e-mail addresses, query strings and query parameters masked. */
export function scrubText(text: string): string {
  return text
    .replace(QUERY_PARAMS, `$1 ${MASK}`)
    .replace(QUERY, `$1?${MASK}`)
    .replace(EMAIL, MASK)
    .replace(PHONE, MASK);
}

/**
 * A URL's path for a log line: no query, no fragment, and nothing after the prefixes of the
 * links we mail or print, whose last segments are secrets (reset, invitation and contact-change
 * tokens, slip tokens). secret-links.test.ts finds every such link in the server's code.
 */
export function loggablePath(url: string): string {
  const pathname = new URL(url, "http://path.invalid").pathname;
  const secret = PATHS_ENDING_IN_SECRETS.find((prefix) => pathname.startsWith(prefix));
  return secret ? `${secret}${MASK}` : scrubText(pathname);
}

const PATHS_ENDING_IN_SECRETS = [
  "/password/reset/",
  "/staff/password/",
  "/biodata/confirm/",
  // Before "/verify/": the printed results' and exam cards' pages keep their own prefix.
  "/verify/results/",
  "/verify/exam-card/",
  "/verify/invoice/",
  "/verify/",
  "/api/slips/verify/",
  "/slips/verify/",
  "/api/results/verify/",
  "/results/verify/",
  "/api/exam-cards/verify/",
  "/exam-cards/verify/",
  "/api/invoices/verify/",
  "/invoices/verify/",
  // A released transcript's page and its API check: the token is the transcript's key.
  "/api/transcripts/verify/",
  "/transcripts/verify/",
  "/transcripts/",
];
