import { describe, expect, it } from "vitest";
import { checkBudgets } from "./budgets.ts";
import type { Bytes, PageRun } from "./measure.ts";
import type { ResourceKind } from "./network-log.ts";
import { jsBudgetKiB, pageAccess } from "./pages.ts";
import { NETWORK_PROFILES } from "./profiles.ts";
import { allWithinBudget, formatReport, median, summarizePage } from "./report.ts";
import type { BenchResult } from "./report.ts";

const KIB = 1024;

function bytes(gzipKiB: Partial<Record<ResourceKind, number>>): Record<ResourceKind, Bytes> {
  const kinds: ResourceKind[] = ["html", "css", "js", "images", "other"];
  return Object.fromEntries(
    kinds.map((kind) => [
      kind,
      { raw: (gzipKiB[kind] ?? 0) * 3 * KIB, gzip: (gzipKiB[kind] ?? 0) * KIB },
    ]),
  ) as Record<ResourceKind, Bytes>;
}

function run(path: string, lcpMs: number | null, over: Partial<PageRun> = {}): PageRun {
  const url = `http://127.0.0.1:4321${path}`;
  return {
    url,
    finalUrl: url,
    status: 200,
    bytes: bytes({ html: 4, css: 2, js: 8 }),
    requests: 3,
    renderBlocking: [],
    paint: { lcpMs, source: "lcp", element: `h1 "${path} at ${lcpMs}"` },
    resources: [],
    ...over,
  };
}

describe("median", () => {
  it.each([
    [[3], 3],
    [[5, 1, 3], 3],
    [[4, 1, 3, 2], 2.5],
    [[null, 7, 9], 8],
    [[null], null],
    [[], null],
  ])("of %j is %j", (values, expected) => {
    expect(median(values)).toBe(expected);
  });
});

describe("page table", () => {
  it.each([
    ["/login", "public", 75],
    ["/login?next=%2Fpayment", "public", 75],
    ["/reset-password", "public", 100],
    ["/verify/abc123", "public", 100],
    ["/", "signed-in", 10],
    ["/invoice/school-fee", "signed-in", 10],
    ["/course-reg/print", "signed-in", 10],
    ["/library", "signed-in", 10],
    ["/payment", "signed-in", 100],
    ["/course-reg", "signed-in", 100],
  ])("%s is %s with a %d KiB JS budget", (path, access, kib) => {
    expect(pageAccess(path)).toBe(access);
    expect(jsBudgetKiB(path)).toBe(kib);
  });
});

describe("checkBudgets", () => {
  const verdicts = (
    path: string,
    kib: Partial<Record<ResourceKind, number>>,
    ratio: number | null,
  ) => checkBudgets(path, bytes(kib), ratio).map((check) => `${check.name}:${check.pass}`);

  it("passes a login page within every budget", () => {
    expect(verdicts("/login", { html: 10, css: 20, js: 75 }, 1.2)).toEqual([
      "JS gzip:true",
      "HTML+CSS gzip:true",
      "LCP / floor:true",
    ]);
  });

  it("holds the dashboard to 10 KiB of JS and any page to 30 KiB of HTML+CSS", () => {
    expect(verdicts("/", { html: 20, css: 10.5, js: 10.5 }, 1)).toEqual([
      "JS gzip:false",
      "HTML+CSS gzip:false",
      "LCP / floor:true",
    ]);
  });

  it("counts an LCP that was not measured as over budget", () => {
    expect(verdicts("/payment", { js: 99 }, null)).toContain("LCP / floor:false");
    expect(verdicts("/payment", { js: 99 }, 1.21)).toContain("LCP / floor:false");
  });
});

describe("summarizePage", () => {
  it("reports the median run, its LCP element and the ratio to the floor", () => {
    const runs = [run("/", 2600), run("/", 2400), run("/", 3900)];
    const summary = summarizePage("/", "signed-in", runs, 2000);
    expect(summary.lcpMs).toBe(2600);
    expect(summary.lcpRunsMs).toEqual([2600, 2400, 3900]);
    expect(summary.lcpElement).toBe('h1 "/ at 2600"');
    expect(summary.floorRatio).toBeCloseTo(1.3);
    expect(summary.budgets.map((b) => b.pass)).toEqual([true, true, false]);
    expect(summary.redirectedTo).toBeUndefined();
  });

  it("notices a signed-in page that was sent to /login", () => {
    const runs = [run("/", 900, { finalUrl: "http://127.0.0.1:4321/login?next=%2F" })];
    expect(summarizePage("/", "signed-in", runs, 800).redirectedTo).toBe("/login");
  });

  it("checks no budgets for the floor itself", () => {
    expect(summarizePage("floor", "public", [run("/", 2200)], null).budgets).toEqual([]);
  });
});

describe("formatReport", () => {
  const profile = NETWORK_PROFILES[1];
  const floor = summarizePage("floor", "public", [run("/floor", 2200)], null);
  const pages = [
    summarizePage("/login", "public", [run("/login", 2300)], 2200),
    summarizePage("/", "signed-in", [run("/", 4400, { status: 500 })], 2200),
  ];
  const profiles = [{ profile, floor, pages }];
  const result: BenchResult = {
    measuredAt: "2025-01-01T00:00:00.000Z",
    baseUrl: "http://127.0.0.1:4321",
    cpuSlowdown: 4,
    runs: 1,
    profiles,
    pass: allWithinBudget(profiles),
  };
  const text = formatReport(result);

  it("prints one row per page with sizes, LCP, ratio and verdict", () => {
    expect(text).toContain("3G: 2000 ms latency, 50 kB/s down");
    const login = text.split("\n").find((line) => line.startsWith("/login "));
    expect(login).toMatch(/4\.0\/12\.0 +2\.0\/6\.0 +8\.0\/24\.0 +- +- +3 +0 +2300 +1\.05 +PASS/);
    expect(text).toMatch(/^\/ .* 4400 +2\.00 +OVER LCP/m);
    expect(text).toMatch(/^floor .* 2200 +- +p?/m);
  });

  it("lists each budget check and says when something is over", () => {
    expect(text).toMatch(/PASS +3G +\/login +JS gzip +8\.0 KiB +limit 75 KiB/);
    expect(text).toMatch(/OVER +3G +\/ +LCP \/ floor +2\.00 × +limit 1\.2 × floor/);
    expect(text).toContain("note: / answered HTTP 500");
    expect(result.pass).toBe(false);
    expect(text).toContain("Some budgets are OVER.");
  });
});
