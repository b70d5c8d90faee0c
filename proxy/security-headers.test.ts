import { describe, expect, it } from "vitest";
import { recordingProxy } from "./recording-proxy.test-kit.ts";

const ORIGIN = "http://localhost:4321";

describe("security headers", () => {
  it("keep the page server's script hashes and a page's own referrer policy", async () => {
    const pagePolicy =
      "default-src 'self'; script-src 'self' 'sha256-abc='; style-src 'self' 'unsafe-inline'";
    const { app } = recordingProxy(
      ORIGIN,
      () =>
        new Response("<p>reset</p>", {
          headers: {
            "content-type": "text/html",
            "content-security-policy": pagePolicy,
            "referrer-policy": "no-referrer",
          },
        }),
    );
    const response = await app.request(`${ORIGIN}/password/reset/MQ/token-abc`);
    expect(response.headers.get("content-security-policy")).toBe(pagePolicy);
    expect(response.headers.get("referrer-policy")).toBe("no-referrer");
  });

  it("give answers without a policy one that allows no inline script", async () => {
    const { app } = recordingProxy(ORIGIN);
    const response = await app.request(`${ORIGIN}/api/student/me`);
    const policy = response.headers.get("content-security-policy")!;
    expect(policy).toContain("script-src 'self';");
    expect(policy).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    expect(policy).toContain("frame-ancestors 'none'");
    expect(response.headers.get("referrer-policy")).toBe("same-origin");
  });

  it("deny the browser features no page uses", async () => {
    const { app } = recordingProxy(ORIGIN);
    const response = await app.request(`${ORIGIN}/login`);
    const permissions = response.headers.get("permissions-policy")!;
    for (const feature of ["camera=()", "microphone=()", "geolocation=()", "payment=()"]) {
      expect(permissions).toContain(feature);
    }
  });
});
