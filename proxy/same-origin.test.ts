import { describe, expect, it } from "vitest";
import { recordingProxy } from "./recording-proxy.ts";

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
