import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { serveStatic } from "@hono/node-server/serve-static";
import { Hono } from "hono";
import { setAnswerHeader } from "../../common/http/answer-in-place.ts";

type BuiltPages = {
  handler: (request: IncomingMessage, response: ServerResponse) => void;
  renderPage(request: Request): Promise<Response | null>;
  renderNotFound(request: Request): Promise<Response>;
};

// Astro names every built script and style after its content: a new build is a new address.
const IMMUTABLE = "public, max-age=31536000, immutable";

/**
 * dist/ is a production build, whatever NODE_ENV says about demo data and stand-ins (`npm start`
 * says development). React chooses its development code, with checks and warnings that cost
 * about a fifth of a page's time (decision 112), from NODE_ENV at the moment it is first loaded:
 * so it is loaded under "production", and NODE_ENV is then put back for everything else.
 */
async function asProductionBuild<T>(load: () => Promise<T>): Promise<T> {
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = "production";
  try {
    return await load();
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
}

/**
 * The built page server (`astro build` → dist/), loaded into this process: its Node `handler`
 * for the PAGES_PORT listener, and a `fetch` that renders pages and serves built assets without
 * an HTTP hop, for the proxy in the same process. Assets go out precompressed (brotli or gzip,
 * written at build time) and, under /_astro/, cached for a year.
 */
export async function loadBuiltPages(distDir = "dist") {
  // The adapter would otherwise start its own HTTP server as soon as the module loads.
  process.env.ASTRO_NODE_AUTOSTART = "disabled";
  const entry = pathToFileURL(path.resolve(distDir, "server/entry.mjs")).href;
  const pages = await asProductionBuild(async () => {
    // The pages' chunks load later, on first use, and find React already loaded.
    await Promise.all([import("react"), import("react/jsx-runtime"), import("react-dom/server")]);
    return (await import(entry)) as BuiltPages;
  });

  const app = new Hono();
  app.all("*", async (c, next) => (await pages.renderPage(c.req.raw)) ?? next());
  app.use("/_astro/*", async (c, next) => {
    await next();
    if (c.res.ok) setAnswerHeader(c, "cache-control", IMMUTABLE);
  });
  app.use(serveStatic({ root: path.resolve(distDir, "client"), precompressed: true }));
  app.all("*", (c) => pages.renderNotFound(c.req.raw));
  return { handler: pages.handler, fetch: (request: Request) => app.fetch(request) };
}
