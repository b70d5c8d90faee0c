import { describe, expect, it } from "vitest";
import { recordingProxy } from "./recording-proxy.test-kit.ts";

const ORIGIN = "http://localhost:4321";
const RESET_PAGE = `${ORIGIN}/password/reset/MQ/c8q0ul-0123456789abcdef`;

// The reset page is sent with Referrer-Policy: no-referrer, so its plain form posts say Origin: null.
describe("a form post with Origin: null", () => {
  it.each([
    ["passes when the browser says it is same-origin", "same-origin", 200, 1],
    ["is refused when the browser says it is cross-site", "cross-site", 403, 0],
    ["is refused when nothing vouches for it", undefined, 403, 0],
  ])("%s", async (_case, site, status, relayed) => {
    const { app, sent } = recordingProxy();
    const response = await app.request(RESET_PAGE, {
      method: "POST",
      headers: {
        origin: "null",
        "content-type": "application/x-www-form-urlencoded",
        ...(site ? { "sec-fetch-site": site } : {}),
      },
      body: "password=long-enough-1&confirm_password=long-enough-1",
    });
    expect(response.status).toBe(status);
    expect(sent).toHaveLength(relayed);
  });
});

// Behind a TLS-terminating front proxy every request reaches us as http://, with X-Forwarded-Proto.
describe("a portal served over https", () => {
  const PUBLIC = "https://portal.college.test";
  const post = (origin: string) =>
    recordingProxy(PUBLIC).app.request("http://portal.college.test/staff/login", {
      method: "POST",
      headers: {
        origin,
        "x-forwarded-proto": "https",
        "content-type": "application/x-www-form-urlencoded",
      },
      body: "email=a%40college.test&password=x",
    });

  it("refuses a form from its own host name over plain http", async () => {
    const response = await post("http://portal.college.test");
    expect(response.status).toBe(403);
    expect(await response.text()).toContain(
      "This request came from another website and was refused.",
    );
  });

  it("takes a form from its https origin", async () => {
    expect((await post("https://portal.college.test")).status).toBe(303);
  });
});

describe("a staff API answer the proxy makes itself", () => {
  it("is never stored, refusals included", async () => {
    const { app, sent } = recordingProxy();
    const refused = await app.request("http://localhost:4321/api/staff/accounts", {
      method: "POST",
      headers: { origin: "https://elsewhere.example", "content-type": "application/json" },
      body: "{}",
    });
    expect(refused.status).toBe(403);
    expect(refused.headers.get("cache-control")).toBe("private, no-store");
    const kept = await app.request("http://localhost:4321/api/staff/login", {
      method: "POST",
      headers: { origin: "http://localhost:4321" },
    });
    expect(kept.status).toBe(404);
    expect(kept.headers.get("cache-control")).toBe("private, no-store");
    expect(sent).toHaveLength(0);
  });
});
