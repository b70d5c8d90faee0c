import { parseArgs } from "node:util";
import { DEFAULT_PAGES } from "./pages.ts";

/** What `node scripts/bench.ts` was asked to do. */
export interface BenchArgs {
  /** A running portal to measure; when absent the bench starts its own. */
  url?: string;
  pages: string[];
  runs: number;
  /** Exit 1 when any budget is over. */
  strict: boolean;
  help: boolean;
}

/** Usage text for `--help`. */
export const USAGE = `Usage: node scripts/bench.ts [options]

Measures first visits in headless Chromium (mobile, CPU ×4, cold cache) on "Slow 4G" and
"3G", against the budgets in docs/architecture.md. Without --url it starts the portal itself with
"node runtime/start.ts" (run "astro build" first, as "npm run bench" does).

  --url http://host:port   measure a portal that is already running
  --pages /login,/,/payment pages to measure (default: ${DEFAULT_PAGES.join(",")})
  --runs N                 visits per page and profile; the median LCP is reported (default 5: Slow 4G varies ±100 ms a visit)
  --strict                 exit with code 1 when a budget is over
  --help                   show this text`;

/** Parses the command line; throws with a readable message on a bad value. */
export function parseBenchArgs(argv: readonly string[]): BenchArgs {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      url: { type: "string" },
      pages: { type: "string" },
      runs: { type: "string", default: "5" },
      strict: { type: "boolean", default: false },
      help: { type: "boolean", default: false },
    },
  });
  const runs = Number(values.runs);
  if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs must be a whole number ≥ 1`);
  if (values.url !== undefined && !/^https?:\/\//.test(values.url)) {
    throw new Error(`--url must look like http://host:port, got "${values.url}"`);
  }
  const pages =
    values.pages
      ?.split(",")
      .map((p) => p.trim())
      .filter(Boolean) ?? DEFAULT_PAGES;
  const bad = pages.find((page) => !page.startsWith("/"));
  if (bad) throw new Error(`--pages takes paths starting with "/", got "${bad}"`);
  return { url: values.url, pages, runs, strict: values.strict, help: values.help };
}
