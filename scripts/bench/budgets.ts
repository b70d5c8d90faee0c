import type { Bytes } from "./measure.ts";
import type { ResourceKind } from "./network-log.ts";
import { jsBudgetKiB } from "./pages.ts";

/** HTML + CSS a first paint may need, gzip KiB. */
export const HTML_CSS_BUDGET_KIB = 30;

/** How much slower than the one-line floor page a page's LCP may be. */
export const LCP_FLOOR_RATIO_BUDGET = 1.2;

/** One budget from docs/architecture.md applied to one page under one profile. */
export interface BudgetCheck {
  name: "JS gzip" | "HTML+CSS gzip" | "LCP / floor";
  /** `null` when the value could not be measured (counts as over budget). */
  value: number | null;
  limit: number;
  unit: "KiB" | "× floor";
  pass: boolean;
}

const KIB = 1024;

function check(name: BudgetCheck["name"], value: number | null, limit: number): BudgetCheck {
  const unit = name === "LCP / floor" ? "× floor" : "KiB";
  return { name, value, limit, unit, pass: value !== null && value <= limit };
}

/** The budgets (docs/architecture.md) for `path`, given what a first visit downloaded and its LCP ratio. */
export function checkBudgets(
  path: string,
  bytes: Record<ResourceKind, Bytes>,
  floorRatio: number | null,
): BudgetCheck[] {
  return [
    check("JS gzip", bytes.js.gzip / KIB, jsBudgetKiB(path)),
    check("HTML+CSS gzip", (bytes.html.gzip + bytes.css.gzip) / KIB, HTML_CSS_BUDGET_KIB),
    check("LCP / floor", floorRatio, LCP_FLOOR_RATIO_BUDGET),
  ];
}
