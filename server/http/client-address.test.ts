import { describe, expect, it } from "vitest";
import { clientNetwork } from "./client-address.ts";

const from = (forwardedFor: string) =>
  new Request("http://api.test/", { headers: { "x-forwarded-for": forwardedFor } });

describe("clientNetwork", () => {
  it.each([
    ["an IPv4 address", "198.51.100.7", "198.51.100.7"],
    ["the first of several hops", "198.51.100.7, 10.0.0.1", "198.51.100.7"],
    ["an IPv4-mapped IPv6 address", "::ffff:198.51.100.7", "198.51.100.7"],
    ["a full IPv6 address", "2001:0db8:0001:0002:0003:0004:0005:0006", "2001:db8:1:2::/64"],
    ["a compressed IPv6 address", "2001:db8:1:2::9", "2001:db8:1:2::/64"],
    ["an IPv6 address compressed inside its /64", "2001:db8::5", "2001:db8:0:0::/64"],
    ["the IPv6 loopback", "::1", "0:0:0:0::/64"],
    ["a missing header", "", "unknown"],
  ])("counts %s (%s) as %s", (_case, forwardedFor, network) => {
    expect(clientNetwork(from(forwardedFor))).toBe(network);
  });
});
