import { describe, expect, it } from "vitest";
import { clientAddressRule, readProxyEnv } from "./env.ts";

describe("readProxyEnv: where the client's address is found", () => {
  it("uses the socket when nothing is set, or when the settings are blank", () => {
    expect(clientAddressRule(readProxyEnv({}))).toEqual({ trustedHops: 0 });
    expect(
      clientAddressRule(readProxyEnv({ TRUSTED_PROXY_HOPS: "", CLIENT_ADDRESS_HEADER: " " })),
    ).toEqual({ trustedHops: 0 });
  });

  it("counts trusted hops", () => {
    expect(clientAddressRule(readProxyEnv({ TRUSTED_PROXY_HOPS: " 2 " }))).toEqual({
      trustedHops: 2,
    });
  });

  it.each([
    ["-1", "How many load balancers or CDNs are in front, as a whole number (0: none)."],
    ["two", "How many load balancers or CDNs are in front, as a whole number (0: none)."],
    ["1.5", "How many load balancers or CDNs are in front, as a whole number (0: none)."],
    ["11", "At most 10 proxies in front."],
  ])("refuses TRUSTED_PROXY_HOPS=%s", (value, message) => {
    expect(() => readProxyEnv({ TRUSTED_PROXY_HOPS: value })).toThrow(
      `TRUSTED_PROXY_HOPS: ${message}`,
    );
  });

  it("reads a CDN's header in lower case", () => {
    expect(clientAddressRule(readProxyEnv({ CLIENT_ADDRESS_HEADER: "CF-Connecting-IP" }))).toEqual({
      header: "cf-connecting-ip",
    });
    // A blank hops line beside it (as in .env.example) is not a conflict.
    expect(
      clientAddressRule(
        readProxyEnv({ CLIENT_ADDRESS_HEADER: "true-client-ip", TRUSTED_PROXY_HOPS: "0" }),
      ),
    ).toEqual({
      header: "true-client-ip",
    });
  });

  it.each(["x-forwarded-for", "Forwarded"])(
    "refuses CLIENT_ADDRESS_HEADER=%s, which clients write to",
    (name) => {
      expect(() => readProxyEnv({ CLIENT_ADDRESS_HEADER: name })).toThrow(
        "CLIENT_ADDRESS_HEADER: Clients write to this header too: set TRUSTED_PROXY_HOPS instead.",
      );
    },
  );

  it("refuses a header name that is not one", () => {
    expect(() => readProxyEnv({ CLIENT_ADDRESS_HEADER: "cf connecting ip" })).toThrow(
      "CLIENT_ADDRESS_HEADER: A header name, such as cf-connecting-ip.",
    );
  });

  it("refuses hops and a header together", () => {
    expect(() =>
      readProxyEnv({ CLIENT_ADDRESS_HEADER: "cf-connecting-ip", TRUSTED_PROXY_HOPS: "1" }),
    ).toThrow("CLIENT_ADDRESS_HEADER, TRUSTED_PROXY_HOPS: set one of them, not both");
  });
});

describe("readProxyEnv: the shared secret", () => {
  it("takes one of 32 characters or more", () => {
    expect(readProxyEnv({ PROXY_SHARED_SECRET: "s".repeat(32) }).PROXY_SHARED_SECRET).toBe(
      "s".repeat(32),
    );
  });

  it.each(["", "short-secret"])("refuses %j", (secret) => {
    expect(() => readProxyEnv({ PROXY_SHARED_SECRET: secret })).toThrow(
      "PROXY_SHARED_SECRET: Use at least 32 random characters.",
    );
  });
});

describe("readProxyEnv: admission control", () => {
  it("takes 32 requests at once per process, lets 512 wait up to 10 s, and reads blanks as those", () => {
    const expected = {
      MAX_REQUESTS_IN_FLIGHT: 32,
      MAX_REQUESTS_WAITING: 512,
      MAX_REQUEST_WAIT_MS: 10_000,
    };
    expect(readProxyEnv({})).toMatchObject(expected);
    expect(
      readProxyEnv({
        MAX_REQUESTS_IN_FLIGHT: "",
        MAX_REQUESTS_WAITING: " ",
        MAX_REQUEST_WAIT_MS: "",
      }),
    ).toMatchObject(expected);
    expect(
      readProxyEnv({
        MAX_REQUESTS_IN_FLIGHT: "8",
        MAX_REQUESTS_WAITING: "0",
        MAX_REQUEST_WAIT_MS: "2500",
      }),
    ).toMatchObject({
      MAX_REQUESTS_IN_FLIGHT: 8,
      MAX_REQUESTS_WAITING: 0,
      MAX_REQUEST_WAIT_MS: 2_500,
    });
  });

  it.each([
    ["MAX_REQUESTS_IN_FLIGHT", "0"],
    ["MAX_REQUESTS_IN_FLIGHT", "lots"],
    ["MAX_REQUESTS_WAITING", "-1"],
    ["MAX_REQUEST_WAIT_MS", "1.5"],
  ])("refuses %s=%s", (name, value) => {
    expect(() => readProxyEnv({ [name]: value })).toThrow(`${name}:`);
  });
});

describe("readProxyEnv: the line at the door", () => {
  it("keeps a line, letting in at most 200 newcomers a second per process, unless told otherwise", () => {
    expect(readProxyEnv({})).toMatchObject({
      WAITING_LINE: "on",
      WAITING_LINE_MAX_PER_SECOND: 200,
    });
    expect(readProxyEnv({ WAITING_LINE: "", WAITING_LINE_MAX_PER_SECOND: " " })).toMatchObject({
      WAITING_LINE: "on",
      WAITING_LINE_MAX_PER_SECOND: 200,
    });
    expect(readProxyEnv({ WAITING_LINE: "off", WAITING_LINE_MAX_PER_SECOND: "2.5" })).toMatchObject(
      { WAITING_LINE: "off", WAITING_LINE_MAX_PER_SECOND: 2.5 },
    );
  });

  it("lets in at least half a newcomer a second however slow the portal is, unless told more", () => {
    expect(readProxyEnv({})).toMatchObject({ WAITING_LINE_MIN_PER_SECOND: 0.5 });
    expect(
      readProxyEnv({ WAITING_LINE_MIN_PER_SECOND: "100", WAITING_LINE_MAX_PER_SECOND: "100" }),
    ).toMatchObject({ WAITING_LINE_MIN_PER_SECOND: 100, WAITING_LINE_MAX_PER_SECOND: 100 });
    expect(() =>
      readProxyEnv({ WAITING_LINE_MIN_PER_SECOND: "50", WAITING_LINE_MAX_PER_SECOND: "20" }),
    ).toThrow("WAITING_LINE_MIN_PER_SECOND: at most WAITING_LINE_MAX_PER_SECOND (20)");
  });

  it.each([
    ["WAITING_LINE", "maybe"],
    ["WAITING_LINE_MAX_PER_SECOND", "0"],
    ["WAITING_LINE_MAX_PER_SECOND", "fast"],
    ["WAITING_LINE_MIN_PER_SECOND", "0.1"],
    ["WAITING_LINE_MIN_PER_SECOND", "slow"],
  ])("refuses %s=%s", (name, value) => {
    expect(() => readProxyEnv({ [name]: value })).toThrow(`${name}:`);
  });
});
