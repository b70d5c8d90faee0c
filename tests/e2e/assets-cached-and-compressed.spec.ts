import { expect, test } from "@playwright/test";

// A phone fetches the scripts once and keeps them: they travel compressed at build time and are
// cached for a year under names that change with their content (decision 112).
test("the sign-in page's scripts arrive precompressed and cached for good", async ({ page, request }) => {
  const scripts: string[] = [];
  page.on("response", (response) => {
    if (new URL(response.url()).pathname.startsWith("/_astro/") && response.url().endsWith(".js")) scripts.push(response.url());
  });
  await page.goto("/login");
  await expect(page.getByRole("button", { name: "Sign in" })).toBeVisible();
  expect(scripts.length).toBeGreaterThan(0);

  for (const url of scripts) {
    const brotli = await request.get(url, { headers: { "accept-encoding": "br" } });
    expect(brotli.status()).toBe(200);
    expect(brotli.headers()["content-encoding"]).toBe("br");
    expect(brotli.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(brotli.headers()["vary"]).toMatch(/accept-encoding/i);

    const gzip = await request.get(url, { headers: { "accept-encoding": "gzip" } });
    expect(gzip.headers()["content-encoding"]).toBe("gzip");
    // Playwright decodes both; they are the same script.
    expect(await gzip.text()).toBe(await brotli.text());
  }
});

test("a page is never cached, and an address that is nothing is the not-found page", async ({ request }) => {
  const login = await request.get("/login");
  expect(login.headers()["cache-control"] ?? "").not.toContain("immutable");
  const missing = await request.get("/_astro/no-such-script.js");
  expect(missing.status()).toBe(404);
});
