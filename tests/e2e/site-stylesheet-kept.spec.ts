import { expect, test, type Page } from "@playwright/test";
import { DEMO, signIn, signInWithoutJavaScript } from "./support.ts";

// The site-wide CSS comes inline on a browser's first page, which asks the browser to prefetch it
// as a file when idle; the pages after that link to the file the browser keeps (decision 203).

/** Styles from src/styles/global.css alone: the page's canvas and the size of its heading. */
async function expectSiteStyles(page: Page) {
  await expect(page.locator("html")).toHaveCSS("background-color", "rgb(244, 246, 248)");
  await expect(page.locator("h1").first()).toHaveCSS("font-size", "22.4px");
}

/** How the site CSS reached the page shown: inline, or a link, and the prefetch it ends with. */
const siteCssIn = (page: Page) =>
  page.evaluate(() => ({
    inline: [...document.querySelectorAll("head style")].some((style) =>
      style.textContent!.startsWith(":root{--brand:"),
    ),
    links: [...document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')].map(
      (link) => new URL(link.href).pathname + new URL(link.href).search,
    ),
    prefetches: [...document.querySelectorAll<HTMLLinkElement>('link[rel="prefetch"]')].map(
      (link) => new URL(link.href).pathname + new URL(link.href).search,
    ),
  }));

/** What came over the network for `href` on the page shown, per request: 0 from the browser's cache. */
const bytesOverTheNetwork = (page: Page, href: string) =>
  page.evaluate(
    (url) =>
      performance
        .getEntriesByName(url)
        .map((entry) => (entry as PerformanceResourceTiming).transferSize),
    new URL(href, page.url()).href,
  );

for (const javaScript of [true, false]) {
  test.describe(javaScript ? "with JavaScript" : "without JavaScript", () => {
    test.use({ javaScriptEnabled: javaScript });

    test("the first page carries the site CSS, the browser fetches the file once, and the next pages use it, styled as before", async ({
      page,
      context,
    }) => {
      const prefetched = page.waitForResponse(
        (response) => new URL(response.url()).pathname === "/site.css",
      );
      await page.goto("/login");
      const first = await siteCssIn(page);
      expect(first.inline).toBe(true);
      expect(first.links).toEqual([]);
      expect(first.prefetches).toEqual([expect.stringMatching(/^\/site\.css\?v=[0-9a-f]{12}$/)]);
      await expectSiteStyles(page);

      // The browser fetches the file by itself, with no script of ours.
      const file = await prefetched;
      expect(file.status()).toBe(200);
      expect(file.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
      const href = first.prefetches[0]!;
      const version = href.split("=")[1];
      await expect
        .poll(async () => (await context.cookies()).find((c) => c.name === "site_css")?.value)
        .toBe(version);

      if (javaScript) await signIn(page, DEMO.returning, "/history/payments");
      else await signInWithoutJavaScript(page, DEMO.returning, "/history/payments");
      const next = await siteCssIn(page);
      expect(next).toEqual({ inline: false, links: [href], prefetches: [] });
      await expectSiteStyles(page);
      expect(await bytesOverTheNetwork(page, href)).toEqual([0]);

      // One more page: the same file, still from the cache.
      await page.goto("/payment");
      expect((await siteCssIn(page)).links).toEqual([href]);
      await expectSiteStyles(page);
      expect(await bytesOverTheNetwork(page, href)).toEqual([0]);
    });
  });
}
