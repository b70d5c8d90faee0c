import { checkBudgets } from "./budgets.ts";
import type { BudgetCheck } from "./budgets.ts";
import type { Bytes, PageRun } from "./measure.ts";
import { RESOURCE_KINDS } from "./network-log.ts";
import type { ResourceKind, ResourceRecord } from "./network-log.ts";
import type { PageAccess } from "./pages.ts";
import type { NetworkProfile } from "./profiles.ts";

/** One page under one network profile, over all runs. */
export interface PageSummary {
  path: string;
  access: PageAccess;
  /** Set when the browser ended on another path, e.g. a signed-in page sent to /login. */
  redirectedTo?: string;
  /** HTTP status of the document measured. */
  status: number;
  /** From the run with the median LCP. */
  bytes: Record<ResourceKind, Bytes>;
  requests: number;
  renderBlocking: string[];
  lcpMs: number | null;
  lcpRunsMs: (number | null)[];
  lcpSource: PageRun["paint"]["source"];
  lcpElement: string;
  /** Median LCP divided by the floor's median LCP. */
  floorRatio: number | null;
  budgets: BudgetCheck[];
  resources: ResourceRecord[];
}

/** Everything measured under one network profile. */
export interface ProfileSummary {
  profile: NetworkProfile;
  floor: PageSummary;
  pages: PageSummary[];
}

/** What `npm run bench` prints and writes to dist/bench-results.json. */
export interface BenchResult {
  measuredAt: string;
  baseUrl: string;
  cpuSlowdown: number;
  runs: number;
  profiles: ProfileSummary[];
  /** Every budget check passed. */
  pass: boolean;
}

/** The median of the measured values; `null` if none was measured. */
export function median(values: readonly (number | null)[]): number | null {
  const sorted = values.filter((v): v is number => v !== null).sort((a, b) => a - b);
  if (sorted.length === 0) return null;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** Folds the runs of one page into a summary; `floorLcpMs` null means "this is the floor". */
export function summarizePage(
  path: string,
  access: PageAccess,
  runs: readonly PageRun[],
  floorLcpMs: number | null,
): PageSummary {
  const lcpRunsMs = runs.map((run) => run.paint.lcpMs);
  const lcpMs = median(lcpRunsMs);
  const typical = runs.find((run) => run.paint.lcpMs === lcpMs) ?? runs[0];
  const floorRatio = lcpMs !== null && floorLcpMs ? lcpMs / floorLcpMs : null;
  const finalPath = new URL(typical.finalUrl).pathname;
  const requestedPath = new URL(typical.url).pathname;
  return {
    path,
    access,
    ...(finalPath !== requestedPath && { redirectedTo: finalPath }),
    status: typical.status,
    bytes: typical.bytes,
    requests: typical.requests,
    renderBlocking: typical.renderBlocking,
    lcpMs,
    lcpRunsMs,
    lcpSource: typical.paint.source,
    lcpElement: typical.paint.element,
    floorRatio,
    budgets: floorLcpMs === null ? [] : checkBudgets(path, typical.bytes, floorRatio),
    resources: typical.resources,
  };
}

/** True when every page passed every budget under every profile. */
export function allWithinBudget(profiles: readonly ProfileSummary[]): boolean {
  return profiles.every((p) => p.pages.every((page) => page.budgets.every((b) => b.pass)));
}

const KIB = 1024;
const kib = (bytes: number) => (bytes / KIB).toFixed(1);
const sizeCell = (b: Bytes) => (b.raw === 0 && b.gzip === 0 ? "-" : `${kib(b.gzip)}/${kib(b.raw)}`);

// Title, width, and whether the cells are text (left-aligned) rather than numbers.
const COLUMNS: readonly [string, number, boolean][] = [
  ["page", 18, true],
  ...RESOURCE_KINDS.map((kind): [string, number, boolean] => [kind, 11, false]),
  ["req", 4, false],
  ["blk", 4, false],
  ["LCP ms", 7, false],
  ["×floor", 7, false],
  ["budget", 12, true],
  ["LCP element", 0, true],
];

function row(cells: readonly string[]): string {
  const padded = cells.map((cell, i) => {
    const [, width, text] = COLUMNS[i];
    return text ? cell.padEnd(width) : cell.padStart(width);
  });
  return padded.join(" ").trimEnd();
}

function budgetCell(page: PageSummary): string {
  if (page.budgets.length === 0) return "";
  const over = page.budgets.filter((b) => !b.pass).map((b) => b.name.split(" ")[0]);
  return over.length ? `OVER ${over.join(",")}` : "PASS";
}

function pageRow(page: PageSummary): string {
  const label = page.redirectedTo ? `${page.path}→${page.redirectedTo}` : page.path;
  return row([
    label,
    ...RESOURCE_KINDS.map((kind) => sizeCell(page.bytes[kind])),
    String(page.requests),
    String(page.renderBlocking.length),
    page.lcpMs === null ? "-" : page.lcpMs.toFixed(0),
    page.floorRatio === null ? "-" : page.floorRatio.toFixed(2),
    budgetCell(page),
    page.lcpSource === "fcp" ? `(FCP) ${page.lcpElement}` : page.lcpElement,
  ]);
}

function formatValue(check: BudgetCheck): string {
  if (check.value === null) return "not measured";
  return check.unit === "KiB" ? `${check.value.toFixed(1)} KiB` : `${check.value.toFixed(2)} ×`;
}

function budgetLine(profile: NetworkProfile, page: PageSummary, check: BudgetCheck): string {
  const limit = check.unit === "KiB" ? `${check.limit} KiB` : `${check.limit} × floor`;
  const verdict = check.pass ? "PASS" : "OVER";
  const where = `${profile.name.padEnd(8)} ${page.path.padEnd(18)} ${check.name.padEnd(14)}`;
  return `  ${verdict}  ${where} ${formatValue(check).padStart(12)}  limit ${limit}`;
}

function pageNotes(page: PageSummary): string[] {
  const notes = [];
  if (page.redirectedTo) notes.push(`${page.path} was redirected to ${page.redirectedTo}`);
  if (page.status < 200 || page.status >= 300)
    notes.push(`${page.path} answered HTTP ${page.status}`);
  return notes;
}

/** The fixed-width report printed to stdout. */
export function formatReport(result: BenchResult): string {
  const lines = [
    `Portal ${result.baseUrl} · cold cache · mobile 360×740 · CPU ×${result.cpuSlowdown} · ` +
      `median LCP of ${result.runs} run(s)`,
    "Sizes in KiB as gzip/raw · req: requests · blk: render-blocking requests",
  ];
  for (const { profile, floor, pages } of result.profiles) {
    const down = (profile.downloadBps / 1000).toFixed(0);
    lines.push("", `${profile.name}: ${profile.latencyMs} ms latency, ${down} kB/s down`);
    lines.push(row(COLUMNS.map(([title]) => title)));
    lines.push(pageRow({ ...floor, path: "floor" }), ...pages.map(pageRow));
  }
  lines.push("", "Budgets (docs/architecture.md)");
  for (const { profile, pages } of result.profiles) {
    for (const page of pages) lines.push(...page.budgets.map((c) => budgetLine(profile, page, c)));
  }
  const notes = new Set(result.profiles.flatMap((p) => p.pages).flatMap(pageNotes));
  lines.push(...[...notes].map((note) => `  note: ${note}`));
  lines.push("", result.pass ? "All budgets met." : "Some budgets are OVER.");
  return lines.join("\n");
}
