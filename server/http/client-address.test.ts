import { describe, expect, it } from "vitest";
import { PROXY_SECRET_HEADER } from "../../common/http/proxy-secret.ts";
import { clientAddressOf, clientNetwork, isLoopback } from "./client-address.ts";

const SECRET = "proxy-secret-for-these-tests-0123456789";
const SOCKET = "192.0.2.50";

const request = (headers: Record<string, string>) => new Request("http://api.test/", { headers });

describe("clientAddressOf: whose x-forwarded-for the API believes", () => {
  it("believes the proxy, which shows the shared secret", () => {
    const fromProxy = request({ "x-forwarded-for": "203.0.113.9", [PROXY_SECRET_HEADER]: SECRET });
    expect(clientAddressOf(fromProxy, SOCKET, SECRET)).toBe("203.0.113.9");
  });

  it("takes only the first entry, the one the proxy wrote", () => {
    const fromProxy = request({
      "x-forwarded-for": "203.0.113.9, 10.0.0.1",
      [PROXY_SECRET_HEADER]: SECRET,
    });
    expect(clientAddressOf(fromProxy, SOCKET, SECRET)).toBe("203.0.113.9");
  });

  it.each([
    ["no secret", {}],
    ["a wrong secret", { [PROXY_SECRET_HEADER]: `${SECRET}x` }],
    ["an empty secret", { [PROXY_SECRET_HEADER]: "" }],
  ])("counts a caller with %s as its socket", (_case, secretHeader) => {
    const direct = request({ "x-forwarded-for": "203.0.113.9", ...secretHeader });
    expect(clientAddressOf(direct, SOCKET, SECRET)).toBe(SOCKET);
  });

  it("answers unknown for an in-process call without the secret", () => {
    expect(clientAddressOf(request({ "x-forwarded-for": "203.0.113.9" }), undefined, SECRET)).toBe(
      "unknown",
    );
  });

  it("believes no one when the API has no secret configured", () => {
    const claimed = request({ "x-forwarded-for": "203.0.113.9", [PROXY_SECRET_HEADER]: "" });
    expect(clientAddressOf(claimed, SOCKET, undefined)).toBe(SOCKET);
    expect(clientAddressOf(claimed, undefined, undefined)).toBe("unknown");
  });

  it("uses the socket when the proxy names no one", () => {
    expect(clientAddressOf(request({ [PROXY_SECRET_HEADER]: SECRET }), SOCKET, SECRET)).toBe(
      SOCKET,
    );
  });
});

describe("clientNetwork", () => {
  it.each([
    ["an IPv4 address", "198.51.100.7", "198.51.100.7"],
    ["an IPv4-mapped IPv6 address", "::ffff:198.51.100.7", "198.51.100.7"],
    ["an IPv4-mapped IPv6 address written in full", "0:0:0:0:0:FFFF:198.51.100.7", "198.51.100.7"],
    ["a full IPv6 address", "2001:0db8:0001:0002:0003:0004:0005:0006", "2001:db8:1:2::/64"],
    ["a compressed IPv6 address", "2001:db8:1:2::9", "2001:db8:1:2::/64"],
    ["another address in the same /64", "2001:db8:1:2:ffff:ffff:ffff:ffff", "2001:db8:1:2::/64"],
    ["an IPv6 address compressed inside its /64", "2001:db8::5", "2001:db8:0:0::/64"],
    ["an IPv6 address with a zone", "fe80::1%eth0", "fe80:0:0:0::/64"],
    ["the IPv6 loopback", "::1", "0:0:0:0::/64"],
    ["an unknown client", "unknown", "unknown"],
  ])("counts %s (%s) as %s", (_case, address, network) => {
    expect(clientNetwork(address)).toBe(network);
  });
});

describe("isLoopback", () => {
  it.each(["127.0.0.1", "127.3.2.1", "::1", "0:0:0:0:0:0:0:1", "::ffff:127.0.0.1"])(
    "counts %s as this machine",
    (address) => {
      expect(isLoopback(address)).toBe(true);
    },
  );

  it.each([
    "unknown",
    "",
    "10.0.0.1",
    "128.0.0.1",
    "::2",
    "::ffff:10.0.0.1",
    "2001:db8::1",
    "127.0.0.1.example",
  ])("does not count %j", (address) => {
    expect(isLoopback(address)).toBe(false);
  });
});
