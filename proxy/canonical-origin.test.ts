import { describe, expect, it } from "vitest";
import { recordingProxy } from "./recording-proxy.test-kit.ts";

// Opened at 127.0.0.1, the portal would set its cookie there; Paystack returns to localhost.
describe("requests at another host name than PUBLIC_ORIGIN", () => {
  it.each(["GET", "HEAD"])(
    "%s moves with 308 to the same path on the public origin",
    async (method) => {
      const { app, sent } = recordingProxy("http://localhost:4321");
      const response = await app.request("http://127.0.0.1:4321/payment?session=2024%2F2025", {
        method,
      });
      expect(response.status).toBe(308);
      expect(response.headers.get("location")).toBe(
        "http://localhost:4321/payment?session=2024%2F2025",
      );
      expect(sent).toHaveLength(0);
    },
  );

  it("moves a plain-http visit to the https public origin", async () => {
    const { app } = recordingProxy("https://portal.college.example");
    const response = await app.request("http://portal.college.example/login");
    expect(response.status).toBe(308);
    expect(response.headers.get("location")).toBe("https://portal.college.example/login");
  });

  it("keeps a path like //evil.example on the public origin", async () => {
    const { app } = recordingProxy("http://localhost:4321");
    const response = await app.request("http://127.0.0.1:4321//evil.example/x");
    expect(response.headers.get("location")).toBe("http://localhost:4321//evil.example/x");
  });

  it.each([
    ["/api/student/uniben/login", /^application\/json/],
    ["/login", /^text\/html/],
  ])(
    "refuses a POST to %s with 403 naming the public origin, before it is relayed",
    async (path, type) => {
      const { app, sent } = recordingProxy("http://localhost:4321");
      const response = await app.request(`http://127.0.0.1:4321${path}`, {
        method: "POST",
        headers: { origin: "http://127.0.0.1:4321", "content-type": "application/json" },
        body: "{}",
      });
      expect(response.status).toBe(403);
      expect(response.headers.get("content-type")).toMatch(type);
      expect(await response.text()).toContain(
        "Open the portal at http://localhost:4321 and try again.",
      );
      expect(sent).toHaveLength(0);
    },
  );

  it("serves the public origin, and https behind a TLS-terminating proxy that says so", async () => {
    expect(
      (await recordingProxy("http://localhost:4321").app.request("http://localhost:4321/login"))
        .status,
    ).toBe(200);
    const behindTls = recordingProxy("https://portal.college.example");
    const response = await behindTls.app.request("http://portal.college.example/login", {
      headers: { "x-forwarded-proto": "https" },
    });
    expect(response.status).toBe(200);
  });
});
