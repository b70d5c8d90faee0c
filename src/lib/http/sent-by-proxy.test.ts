import { describe, expect, it } from "vitest";
import { PROXY_SECRET_HEADER } from "./proxy-secret.ts";
import { sentByProxy } from "./sent-by-proxy.ts";

const SECRET = "the-proxy-secret-of-this-start";

describe("sentByProxy", () => {
  it("believes only the proxy's secret", () => {
    expect(sentByProxy(new Headers({ [PROXY_SECRET_HEADER]: SECRET }), SECRET)).toBe(true);
    expect(sentByProxy(new Headers({ [PROXY_SECRET_HEADER]: `${SECRET}x` }), SECRET)).toBe(false);
    expect(sentByProxy(new Headers(), SECRET)).toBe(false);
    // No secret configured: nothing is believed.
    expect(sentByProxy(new Headers({ [PROXY_SECRET_HEADER]: SECRET }), undefined)).toBe(false);
  });

  it("answers again when the same headers are asked about with another value or secret", () => {
    const headers = new Headers({ [PROXY_SECRET_HEADER]: "a-guess" });
    expect(sentByProxy(headers, SECRET)).toBe(false);
    headers.set(PROXY_SECRET_HEADER, SECRET);
    expect(sentByProxy(headers, SECRET)).toBe(true);
    expect(sentByProxy(headers, "another-start's-secret")).toBe(false);
    headers.delete(PROXY_SECRET_HEADER);
    expect(sentByProxy(headers, SECRET)).toBe(false);
  });
});
