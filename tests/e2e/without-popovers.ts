import type { Page } from "@playwright/test";

/**
 * Makes the page behave as in a browser without the Popover API (Chrome before 114, old Android
 * WebViews, Opera Mini): our Chromium has no switch to turn it off. Such a browser
 * - ignores the `popover` and `popovertarget` attributes, so `[popover]` gets no display: none;
 * - does not know `:popover-open`, so every rule whose selector names it is dropped and
 *   `@supports selector(:popover-open)` is false;
 * - has no showPopover() and friends for scripts to find.
 * The page's own HTML is rewritten on its way in (its CSS is inlined there; inline scripts are
 * left alone, since the content security policy pins their hashes).
 */
export async function withoutPopovers(page: Page) {
  await page.addInitScript(() => {
    for (const name of ["showPopover", "hidePopover", "togglePopover", "popover"]) {
      delete (HTMLElement.prototype as unknown as Record<string, unknown>)[name];
    }
  });
  await page.route(
    (url) => !url.pathname.startsWith("/api/") && !url.pathname.startsWith("/_astro/"),
    async (route) => {
      if (route.request().resourceType() !== "document") return route.continue();
      const response = await route.fetch({ maxRedirects: 0 });
      const type = response.headers()["content-type"] ?? "";
      if (!type.startsWith("text/html")) return route.fulfill({ response });
      const html = (await response.text())
        .replace(/\s(?:popover|popovertarget|popovertargetaction)(?:="[^"]*")?(?=[\s/>])/g, "")
        .replace(/<style\b[^>]*>[\s\S]*?<\/style>/g, (style) =>
          style.replaceAll(":popover-open", ":no-such-state"),
        );
      // The body is decoded and its length changes: the original encoding and length no longer hold.
      const {
        "content-encoding": _encoding,
        "content-length": _length,
        ...headers
      } = response.headers();
      return route.fulfill({ status: response.status(), headers, body: html });
    },
  );
}
