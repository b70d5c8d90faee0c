/** Whether a page is reached without a session or only after signing in. */
export type PageAccess = "public" | "signed-in";

interface PageRule {
  /** An exact path, or a prefix ending in `/*`. */
  pattern: string;
  access?: PageAccess;
  /** JS budget (gzip KiB) for a first visit, stricter than the default. */
  jsBudgetKiB?: number;
}

/** Pages measured when `--pages` is not given. */
export const DEFAULT_PAGES = ["/login", "/"];

/** JS budget (gzip KiB) for any page without a stricter rule. */
export const DEFAULT_JS_BUDGET_KIB = 100;

// First matching rule wins for each field; paths not listed are signed-in with the default budget.
const PAGE_RULES: readonly PageRule[] = [
  { pattern: "/login", access: "public", jsBudgetKiB: 75 },
  { pattern: "/reset-password", access: "public" },
  { pattern: "/password/reset/*", access: "public" },
  { pattern: "/verify/*", access: "public" },
  // Pages nobody types into: HTML that reads and prints without JavaScript.
  { pattern: "/", jsBudgetKiB: 10 },
  { pattern: "/invoice/*", jsBudgetKiB: 10 },
  { pattern: "/course-reg/print", jsBudgetKiB: 10 },
  { pattern: "/library", jsBudgetKiB: 10 },
  { pattern: "/results", jsBudgetKiB: 10 },
  { pattern: "/exam-card", jsBudgetKiB: 10 },
];

function matches(pattern: string, path: string): boolean {
  if (pattern.endsWith("/*")) return path.startsWith(pattern.slice(0, -1));
  return path === pattern;
}

function rulesFor(path: string): PageRule[] {
  const pathname = new URL(path, "http://x").pathname;
  return PAGE_RULES.filter((rule) => matches(rule.pattern, pathname));
}

/** Public pages are measured without a session cookie; all others with one. */
export function pageAccess(path: string): PageAccess {
  return rulesFor(path).find((rule) => rule.access)?.access ?? "signed-in";
}

/** The gzip KiB of JavaScript a first visit to `path` may download. */
export function jsBudgetKiB(path: string): number {
  return rulesFor(path).find((rule) => rule.jsBudgetKiB)?.jsBudgetKiB ?? DEFAULT_JS_BUDGET_KIB;
}
