/**
 * The site-wide stylesheet the browser keeps (decision 203), as a student's browser meets it:
 * `npm start`'s serving process on PGlite, asked through the proxy students reach. A first page
 * carries the CSS inline and asks for the file to be prefetched; the file's answer is cached for
 * good and sets the cookie; a page asked with that cookie links to the file instead.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBuiltPortal, type BuiltPortal } from "./built-portal.test-kit.ts";

let portal: BuiltPortal;
const origin = () => portal.origin;

beforeAll(async () => {
  portal = await startBuiltPortal("site-stylesheet", { WAITING_LINE: "off" });
}, 120_000);
afterAll(() => portal?.stop());

const get = (pathname: string, cookie?: string) =>
  fetch(`${origin()}${pathname}`, {
    headers: { "accept-encoding": "gzip", ...(cookie ? { cookie } : {}) },
    redirect: "manual",
  });

/** What a page's <head> and <body> say about the site stylesheet. */
function stylesOf(html: string) {
  const head = html.slice(0, html.indexOf("</head>"));
  return {
    styleBlocks: [...head.matchAll(/<style>([^<]*)<\/style>/g)].map((match) => match[1]!),
    stylesheetLinks: [...head.matchAll(/<link rel="stylesheet" href="([^"]+)">/g)].map(
      (match) => match[1]!,
    ),
    prefetches: [...html.matchAll(/<link rel="prefetch" href="([^"]+)" as="style">/g)].map(
      (match) => match[1]!,
    ),
    prefetchAtTheEnd: /<link rel="prefetch"[^>]*>\s*<\/body>/.test(html),
  };
}

/** The demo student's session cookie, signed in with the form as a browser without script does. */
async function signIn(): Promise<string> {
  const answer = await fetch(`${origin()}/login`, {
    method: "POST",
    headers: { origin: origin(), "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ username: "08030000001", password: "demo1234" }),
    redirect: "manual",
  });
  expect(answer.status).toBe(303);
  const session = answer.headers
    .getSetCookie()
    .find((cookie) => cookie.startsWith("portal_session="));
  expect(session).toBeDefined();
  return session!.split(";")[0]!;
}

/** The sign-in page as a browser sees it on its first visit, and the file it is told to fetch. */
async function firstVisit() {
  const page = await get("/login");
  expect(page.status).toBe(200);
  const styles = stylesOf(await page.text());
  expect(styles.prefetches).toHaveLength(1);
  const href = styles.prefetches[0]!;
  expect(href).toMatch(/^\/site\.css\?v=[0-9a-f]{12}$/);
  return { page, styles, href, version: new URL(href, origin()).searchParams.get("v")! };
}

describe("the site stylesheet (decision 203)", () => {
  it("comes inline on a first page, first of its styles, with a prefetch of the file at the end of the page and no stylesheet link", async () => {
    const { page, styles } = await firstVisit();
    expect(styles.stylesheetLinks).toEqual([]);
    expect(styles.prefetchAtTheEnd).toBe(true);
    // The site's CSS first, then the page's own block, so the cascade is as it was.
    expect(styles.styleBlocks).toHaveLength(2);
    expect(styles.styleBlocks[0]).toMatch(/^:root\{--brand:#0b6e4f;/);
    expect(styles.styleBlocks[1]).not.toContain(":root{--brand:");
    // Allowed by the page's policy: inline styles, and stylesheets of our own.
    expect(page.headers.get("content-security-policy")).toMatch(
      /style-src 'self' 'unsafe-inline'\s*(;|$)/,
    );
  });

  it("is answered at the prefetched address, signed out, as CSS cached for good, with the cookie that says this browser holds it", async () => {
    const { styles, href, version } = await firstVisit();
    const file = await get(href);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("text/css; charset=utf-8");
    expect(file.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(file.headers.get("content-encoding")).toBe("gzip");
    expect(file.headers.getSetCookie()).toEqual([
      `site_css=${version}; Path=/; Max-Age=2592000; HttpOnly; SameSite=Lax`,
    ]);
    // The very CSS the first page carried inline.
    expect(await file.text()).toBe(styles.styleBlocks[0]);
  });

  it("is linked, not copied, on a signed-in page asked with the cookie; the page keeps its own styles", async () => {
    const { styles: first, href, version } = await firstVisit();
    const session = await signIn();
    const dashboard = await get("/", `${session}; site_css=${version}`);
    expect(dashboard.status).toBe(200);
    const html = await dashboard.text();
    const styles = stylesOf(html);
    expect(styles.stylesheetLinks).toEqual([href]);
    expect(styles.prefetches).toEqual([]);
    expect(html).not.toContain(":root{--brand:");
    expect(html).not.toContain(first.styleBlocks[0]!.slice(0, 200));
    // The page's own block follows the link.
    expect(styles.styleBlocks.length).toBeGreaterThan(0);
    expect(html.indexOf('<link rel="stylesheet"')).toBeLessThan(html.indexOf("<style>"));
    expect(html).toContain('class="shell"');
  });

  it("comes inline again, with the prefetch, when the cookie names another version (a deploy since)", async () => {
    const session = await signIn();
    const dashboard = await get("/", `${session}; site_css=0123456789ab`);
    expect(dashboard.status).toBe(200);
    const styles = stylesOf(await dashboard.text());
    expect(styles.stylesheetLinks).toEqual([]);
    expect(styles.styleBlocks[0]).toMatch(/^:root\{--brand:#0b6e4f;/);
    expect(styles.prefetches).toEqual([(await firstVisit()).href]);
  });

  it("answers another version's address with the current CSS, neither kept nor with the cookie", async () => {
    const { styles } = await firstVisit();
    for (const address of ["/site.css?v=0123456789ab", "/site.css"]) {
      const file = await get(address);
      expect(file.status).toBe(200);
      expect(file.headers.get("content-type")).toBe("text/css; charset=utf-8");
      expect(file.headers.get("cache-control")).toBe("no-store");
      expect(file.headers.getSetCookie()).toEqual([]);
      expect(await file.text()).toBe(styles.styleBlocks[0]);
    }
  });
});
