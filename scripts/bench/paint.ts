import type { Page } from "@playwright/test";

/** When the largest content appeared, and what it was. */
export interface Paint {
  /** ms from navigation start; `null` when nothing was painted. */
  lcpMs: number | null;
  /** "lcp" normally; "fcp" when Chromium reported no LCP entry. */
  source: "lcp" | "fcp" | "none";
  /** e.g. `h1 "Welcome, Ada"` or `img /passport.jpg`. */
  element: string;
}

/** Reads LCP (buffered) from the page, falling back to FCP. Call after the page has settled. */
export function readPaint(page: Page): Promise<Paint> {
  return page.evaluate(() => {
    const describe = (element: Element | null, url: string): string => {
      if (!element) return url ? `(removed) ${url}` : "(removed)";
      const tag = element.tagName.toLowerCase();
      if (url) return `${tag} ${url.replace(location.origin, "")}`;
      const text = (element.textContent ?? "").replace(/\s+/g, " ").trim();
      return `${tag} "${text.length > 40 ? `${text.slice(0, 39)}…` : text}"`;
    };
    return new Promise((resolve) => {
      let last: LargestContentfulPaint | undefined;
      const observer = new PerformanceObserver((list) => {
        last = list.getEntries().at(-1) as LargestContentfulPaint;
      });
      observer.observe({ type: "largest-contentful-paint", buffered: true });
      // Buffered entries arrive in a later task.
      setTimeout(() => {
        observer.disconnect();
        if (last) {
          const element = describe(last.element, last.url);
          resolve({ lcpMs: last.startTime, source: "lcp", element });
          return;
        }
        const fcp = performance.getEntriesByName("first-contentful-paint")[0];
        if (fcp) resolve({ lcpMs: fcp.startTime, source: "fcp", element: "(first paint)" });
        else resolve({ lcpMs: null, source: "none", element: "" });
      }, 250);
    });
  });
}
