import { existsSync } from "node:fs";
import { gzipSync } from "node:zlib";
import type { Browser } from "@playwright/test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFixtureServer } from "./fixture-server.test-kit.ts";
import { startFloorServer } from "./floor.ts";
import type { LocalServer } from "./floor.ts";
import { launchBrowser, measurePage } from "./measure.ts";

const chromiumPath = process.env.CHROMIUM_PATH || "/usr/bin/chromium";

describe.skipIf(!existsSync(chromiumPath))("measurePage", () => {
  let browser: Browser;
  let fixture: Awaited<ReturnType<typeof startFixtureServer>>;
  let floor: LocalServer;

  beforeAll(async () => {
    [browser, fixture, floor] = await Promise.all([
      launchBrowser(),
      startFixtureServer(),
      startFloorServer(),
    ]);
  }, 30_000);

  afterAll(async () => {
    await Promise.all([browser?.close(), fixture?.close(), floor?.close()]);
  });

  it("counts each kind of byte, compressed or not, and the render-blocking CSS", async () => {
    const run = await measurePage(browser, {
      url: fixture.url,
      profile: null,
      cpuSlowdown: 1,
      quietMs: 100,
    });
    const { sizes } = fixture;
    expect(run.status).toBe(200);
    expect(run.requests).toBe(3);
    expect(run.bytes.html.raw).toBe(sizes.html);
    expect(run.bytes.css).toEqual({ raw: sizes.css, gzip: 99 });
    expect(run.bytes.js.raw).toBe(sizes.jsRaw);
    // Sent compressed: the bytes on the wire, give or take chunked-encoding framing.
    expect(run.bytes.js.gzip).toBeGreaterThanOrEqual(sizes.jsGzip);
    expect(run.bytes.js.gzip).toBeLessThan(sizes.jsGzip + 32);
    expect(run.renderBlocking).toEqual([`${fixture.url}style.css`]);
    expect(run.paint).toMatchObject({ source: "lcp", element: 'h1 "Fixture page with a heading"' });
  }, 30_000);

  it("gzips an uncompressed body itself so sizes compare", async () => {
    const run = await measurePage(browser, {
      url: floor.url,
      profile: null,
      cpuSlowdown: 1,
      quietMs: 100,
    });
    const html = run.resources[0];
    expect(run.requests).toBe(1);
    expect(html.encoding).toBe("");
    const body = Buffer.from(await (await fetch(floor.url)).arrayBuffer());
    expect(html.raw).toBe(body.length);
    expect(html.gzip).toBe(gzipSync(body, { level: 6 }).length);
  }, 30_000);

  it("pays the emulated latency before the first paint", async () => {
    const profile = { name: "test", latencyMs: 400, downloadBps: 1_000_000, uploadBps: 1_000_000 };
    const run = await measurePage(browser, {
      url: floor.url,
      profile,
      cpuSlowdown: 1,
      quietMs: 100,
    });
    expect(run.paint.lcpMs).toBeGreaterThanOrEqual(400);
    expect(run.paint.lcpMs).toBeLessThan(2000);
  }, 30_000);
});
