import { expect, test } from "@playwright/test";
import { PRECOMPRESS_MIN_BYTES } from "../../src/server/build-integrations.ts";
import { STUDENT_KEEP_ALIVE_MS } from "../../runtime/serve/student-listener.ts";

// A phone fetches the scripts once and keeps them: they travel compressed at build time and are
// cached for a year under names that change with their content (decision 112).
test("the sign-in page's scripts arrive precompressed and cached for good", async ({
  page,
  request,
}) => {
  const scripts: string[] = [];
  page.on("response", (response) => {
    const url = new URL(response.url());
    if (url.pathname.startsWith("/_astro/") && url.pathname.endsWith(".js"))
      scripts.push(response.url());
  });
  await page.goto("/login");
  await expect(page.getByRole("button", { name: "Sign in" })).toBeVisible();

  let compressed = 0;
  for (const url of scripts) {
    const plain = await request.get(url, { headers: { "accept-encoding": "identity" } });
    expect(plain.status()).toBe(200);
    expect(plain.headers()["content-encoding"]).toBeUndefined();
    expect(plain.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
    const script = await plain.text();
    if (Buffer.byteLength(script) < PRECOMPRESS_MIN_BYTES) continue;

    for (const encoding of ["br", "gzip"]) {
      const answer = await request.get(url, { headers: { "accept-encoding": encoding } });
      expect(answer.headers()["content-encoding"]).toBe(encoding);
      expect(answer.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
      expect(answer.headers()["vary"]).toMatch(/accept-encoding/i);
      // Playwright decodes the body: it is the same script.
      expect(await answer.text()).toBe(script);
    }
    compressed += 1;
  }
  expect(compressed).toBeGreaterThan(0);
});

test("a page is never cached, and an address that is nothing is the not-found page", async ({
  request,
}) => {
  const login = await request.get("/login");
  expect(login.headers()["cache-control"] ?? "").not.toContain("immutable");
  const missing = await request.get("/_astro/no-such-script.js");
  expect(missing.status()).toBe(404);
});

// A student reads a page for longer than Node's default five seconds of keep-alive: the next click
// would open a new connection, one more round trip on mobile data (decision 112).
test("the connection a page came on stays open for the next page", async ({ request }) => {
  const login = await request.get("/login");
  expect(login.headers()["connection"]).toMatch(/keep-alive/i);
  expect(login.headers()["keep-alive"]).toBe(`timeout=${STUDENT_KEEP_ALIVE_MS / 1000}`);
});
