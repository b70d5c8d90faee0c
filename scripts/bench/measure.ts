import { chromium } from "@playwright/test";
import type { Browser } from "@playwright/test";
import { NetworkLog, RESOURCE_KINDS } from "./network-log.ts";
import type { ResourceKind, ResourceRecord } from "./network-log.ts";
import { MOBILE_DEVICE } from "./profiles.ts";
import type { NetworkProfile } from "./profiles.ts";
import { readPaint } from "./paint.ts";
import type { Paint } from "./paint.ts";

/** Raw (decoded) and gzip byte counts. */
export interface Bytes {
  raw: number;
  gzip: number;
}

/** What one cold visit to one page cost. */
export interface PageRun {
  url: string;
  /** Where the browser ended up; differs from `url` after a redirect (e.g. to /login). */
  finalUrl: string;
  /** HTTP status of the final document; 0 if there was none. */
  status: number;
  bytes: Record<ResourceKind, Bytes>;
  requests: number;
  renderBlocking: string[];
  paint: Paint;
  resources: ResourceRecord[];
}

/** A cookie to send with the visit, e.g. the session from signing in. */
export interface SessionCookie {
  name: string;
  value: string;
}

/** How to visit a page. */
export interface MeasureOptions {
  url: string;
  cookies?: readonly SessionCookie[];
  /** `null` measures without network throttling. */
  profile: NetworkProfile | null;
  cpuSlowdown: number;
  /** How long the network must stay idle after `load` before reading the results. */
  quietMs?: number;
}

const BROWSER_ARGS = [
  "--no-sandbox",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-gpu",
];

/** Starts headless Chromium from `CHROMIUM_PATH` or Debian's `/usr/bin/chromium`. */
export function launchBrowser(): Promise<Browser> {
  const executablePath = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
  return chromium.launch({ executablePath, headless: true, args: BROWSER_ARGS });
}

/** Visits `url` once in a fresh browser context (cold cache) and reports bytes and paint. */
export async function measurePage(browser: Browser, options: MeasureOptions): Promise<PageRun> {
  const context = await browser.newContext({ ...MOBILE_DEVICE });
  try {
    if (options.cookies?.length) {
      const url = new URL(options.url).origin;
      await context.addCookies(options.cookies.map((c) => ({ name: c.name, value: c.value, url })));
    }
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    const log = new NetworkLog(cdp);
    await log.start();
    if (options.profile) {
      await cdp.send("Network.emulateNetworkConditions", {
        offline: false,
        latency: options.profile.latencyMs,
        downloadThroughput: options.profile.downloadBps,
        uploadThroughput: options.profile.uploadBps,
      });
    }
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: options.cpuSlowdown });
    const response = await page.goto(options.url, { waitUntil: "load", timeout: 180_000 });
    // Islands may import more code after `load`; a first visit pays for that too.
    await log.waitForQuiet(options.quietMs ?? 1000, 60_000);
    const paint = await readPaint(page);
    const resources = await log.records();
    const status = response?.status() ?? 0;
    return {
      url: options.url,
      finalUrl: page.url(),
      status,
      paint,
      resources,
      ...tally(resources),
    };
  } finally {
    await context.close();
  }
}

function tally(resources: readonly ResourceRecord[]) {
  const bytes = Object.fromEntries(
    RESOURCE_KINDS.map((kind) => [kind, { raw: 0, gzip: 0 }]),
  ) as Record<ResourceKind, Bytes>;
  for (const resource of resources) {
    bytes[resource.kind].raw += resource.raw;
    bytes[resource.kind].gzip += resource.gzip;
  }
  const renderBlocking = resources.filter((r) => r.renderBlocking).map((r) => r.url);
  return { bytes, requests: resources.length, renderBlocking };
}
