import { mkdir, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { parseBenchArgs, USAGE } from "./bench/args.ts";
import type { BenchArgs } from "./bench/args.ts";
import { startFloorServer } from "./bench/floor.ts";
import type { LocalServer } from "./bench/floor.ts";
import { launchBrowser, measurePage } from "./bench/measure.ts";
import type { PageRun, SessionCookie } from "./bench/measure.ts";
import { pageAccess } from "./bench/pages.ts";
import { existingPortal, signIn, startPortal } from "./bench/portal.ts";
import type { RunningPortal } from "./bench/portal.ts";
import { CPU_SLOWDOWN, NETWORK_PROFILES } from "./bench/profiles.ts";
import type { NetworkProfile } from "./bench/profiles.ts";
import { allWithinBudget, formatReport, summarizePage } from "./bench/report.ts";
import type { BenchResult, ProfileSummary } from "./bench/report.ts";
import type { Browser } from "@playwright/test";

const root = fileURLToPath(new URL("..", import.meta.url));
const resultsFile = fileURLToPath(new URL("../dist/bench-results.json", import.meta.url));

const progress = (message: string) => process.stderr.write(`${message}\n`);

/** Visits the floor and every page `runs` times under one profile, interleaved. */
async function measureProfile(
  browser: Browser,
  args: BenchArgs,
  profile: NetworkProfile,
  targets: { floorUrl: string; baseUrl: string; cookies: SessionCookie[] },
): Promise<ProfileSummary> {
  const floorRuns: PageRun[] = [];
  const pageRuns = new Map<string, PageRun[]>(args.pages.map((path) => [path, []]));
  for (let run = 1; run <= args.runs; run++) {
    // Interleaving keeps the floor and the pages under the same machine load.
    const visits = [{ path: "floor", url: targets.floorUrl }].concat(
      args.pages.map((path) => ({ path, url: new URL(path, targets.baseUrl).href })),
    );
    for (const { path, url } of visits) {
      const signedIn = path !== "floor" && pageAccess(path) === "signed-in";
      const cookies = signedIn ? targets.cookies : [];
      const result = await measurePage(browser, {
        url,
        cookies,
        profile,
        cpuSlowdown: CPU_SLOWDOWN,
      });
      const lcp =
        result.paint.lcpMs === null ? "no paint" : `LCP ${result.paint.lcpMs.toFixed(0)} ms`;
      progress(`  ${profile.name} run ${run}/${args.runs} ${path}: ${lcp}`);
      (path === "floor" ? floorRuns : pageRuns.get(path)!).push(result);
    }
  }
  const floor = summarizePage("floor", "public", floorRuns, null);
  const pages = args.pages.map((path) =>
    summarizePage(path, pageAccess(path), pageRuns.get(path)!, floor.lcpMs),
  );
  return { profile, floor, pages };
}

async function bench(args: BenchArgs, portal: RunningPortal): Promise<BenchResult> {
  let floor: LocalServer | undefined;
  let browser: Browser | undefined;
  try {
    floor = await startFloorServer();
    browser = await launchBrowser();
    const needsSession = args.pages.some((path) => pageAccess(path) === "signed-in");
    const cookies = needsSession ? await signIn(portal.url) : [];
    const targets = { floorUrl: floor.url, baseUrl: portal.url, cookies };
    const profiles: ProfileSummary[] = [];
    for (const profile of NETWORK_PROFILES) {
      profiles.push(await measureProfile(browser, args, profile, targets));
    }
    return {
      measuredAt: new Date().toISOString(),
      baseUrl: portal.url,
      cpuSlowdown: CPU_SLOWDOWN,
      runs: args.runs,
      profiles,
      pass: allWithinBudget(profiles),
    };
  } finally {
    await browser?.close();
    await floor?.close();
  }
}

async function main(): Promise<number> {
  const args = parseBenchArgs(process.argv.slice(2));
  if (args.help) {
    console.log(USAGE);
    return 0;
  }
  if (!args.url) progress("Starting the portal (node runtime/start.ts)…");
  const portal = args.url ? existingPortal(args.url) : await startPortal(root);
  const interrupt = (signal: NodeJS.Signals) => {
    progress(`\n${signal}: stopping the portal…`);
    portal.stop().finally(() => process.exit(130));
  };
  process.once("SIGINT", interrupt).once("SIGTERM", interrupt);
  try {
    progress(`Measuring ${portal.url} (${args.pages.join(", ")})`);
    const result = await bench(args, portal).catch((error: Error) => {
      const crash = portal.crashReport();
      throw crash ? new Error(`${error.message}\n${crash}`) : error;
    });
    console.log(formatReport(result));
    await mkdir(fileURLToPath(new URL("../dist/", import.meta.url)), { recursive: true });
    await writeFile(resultsFile, `${JSON.stringify(result, null, 2)}\n`);
    progress(`Wrote ${resultsFile}`);
    return args.strict && !result.pass ? 1 : 0;
  } finally {
    await portal.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`bench: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(2);
  },
);
