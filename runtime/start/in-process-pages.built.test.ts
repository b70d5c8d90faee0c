import fs from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createRequire } from "node:module";
import { afterAll, describe, expect, it, vi } from "vitest";
import { loadBuiltPages } from "./in-process-pages.ts";

const require = createRequire(import.meta.url);
// Node lists a CommonJS file in the cache as soon as it has read its exports (React's index names
// both builds); only the one it ran is `loaded`.
const ranFiles = () =>
  Object.entries(require.cache).flatMap(([file, module]) => (module?.loaded ? [file] : []));

describe("a serving process loading the built pages under NODE_ENV=development (npm start)", () => {
  const nodeEnv = process.env.NODE_ENV;
  afterAll(() => {
    process.env.NODE_ENV = nodeEnv;
  });

  it("renders with React's production build, and leaves NODE_ENV as it was for everything else", async () => {
    process.env.NODE_ENV = "development";
    const pages = await loadBuiltPages();
    const login = await pages.fetch(new Request("http://127.0.0.1/login"));
    expect(login.status).toBe(200);
    expect(await login.text()).toContain("<form");

    expect(process.env.NODE_ENV).toBe("development");
    const react = ranFiles().filter((file) => /node_modules\/react(-dom)?\/cjs\//.test(file));
    expect(react.some((file) => file.endsWith("react.production.js"))).toBe(true);
    expect(
      react.filter((file) => file.includes(".development.")),
      react.join("\n"),
    ).toEqual([]);
  });
});

describe("the page server's request lines (decision 112)", () => {
  it("are left to the proxy for a page it hands over in-process, and written for a page asked over HTTP", async () => {
    const pages = await loadBuiltPages();
    // pino writes straight to the descriptor of standard output, in the background.
    const written = [vi.spyOn(fs, "write"), vi.spyOn(fs, "writeSync")];
    const requestLines = () =>
      written
        .flatMap((spy) => spy.mock.calls.map((call) => String(call[1])))
        .flatMap((data) => data.split("\n"))
        .filter((line) => line.includes('"name":"pages"') && line.includes('"message":"request"'));
    try {
      expect((await pages.fetch(new Request("http://127.0.0.1/login"))).status).toBe(200);
      expect(requestLines()).toEqual([]);

      const server = createServer(pages.handler).listen(0, "127.0.0.1");
      await new Promise((resolve) => server.once("listening", resolve));
      try {
        const { port } = server.address() as AddressInfo;
        expect((await fetch(`http://127.0.0.1:${port}/login`)).status).toBe(200);
      } finally {
        server.close();
      }
      // Given time to write the line in the background.
      await vi.waitFor(() => expect(requestLines()).not.toEqual([]));
      expect(requestLines()).toHaveLength(1);
      expect(requestLines()[0]).toContain('"route":"/login"');
    } finally {
      for (const spy of written) spy.mockRestore();
    }
  });
});

describe("the pages' Content-Security-Policy (decision 112)", () => {
  // Whether the digests are right is the journey's to show (tests/e2e/content-security-policy.spec.ts:
  // every island hydrates, nothing is blocked); here, that a process computes them only once.
  it("is the same on every request, and its digests of inline code are computed once per process, not per request", async () => {
    const pages = await loadBuiltPages();
    const first = await pages.fetch(new Request("http://127.0.0.1/login"));
    const policy = first.headers.get("content-security-policy");
    expect(policy).toMatch(/script-src 'self' 'sha256-/);
    // Inline styles are allowed outright, so no stylesheet digests are listed (browsers would then
    // ignore 'unsafe-inline'); the serving process stops computing them (src/server/entry.ts).
    expect(policy).toMatch(/style-src 'self' 'unsafe-inline' ?;/);
    // The sign-in page inlines its stylesheet, whose digest Astro would otherwise compute again.
    expect(await first.text()).toMatch(/<style>[^<]{1000,}<\/style>/);

    const digest = vi.spyOn(globalThis.crypto.subtle, "digest");
    try {
      const again = await pages.fetch(new Request("http://127.0.0.1/login"));
      expect(again.headers.get("content-security-policy")).toBe(policy);
      expect(digest).not.toHaveBeenCalled();
    } finally {
      digest.mockRestore();
    }
  });
});
