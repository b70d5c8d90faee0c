import { describe, expect, it } from "vitest";
import { clientAddressOf, type ClientAddressRule } from "./client-address.ts";

const SOCKET = "192.0.2.50";

const request = (headers: Record<string, string>) =>
  new Request("http://localhost:4321/", { headers });

describe("clientAddressOf", () => {
  describe("with no proxy in front (TRUSTED_PROXY_HOPS=0, the default)", () => {
    const socketOnly: ClientAddressRule = { trustedHops: 0 };

    it("takes the socket's address and ignores what the client says about itself", () => {
      const spoofed = request({
        "x-forwarded-for": "10.0.0.1, 10.0.0.2",
        "cf-connecting-ip": "10.0.0.3",
        "x-real-ip": "10.0.0.4",
      });
      expect(clientAddressOf(spoofed, SOCKET, socketOnly)).toBe(SOCKET);
    });

    it("answers unknown where there is no socket (an edge runtime) rather than believe a header", () => {
      expect(
        clientAddressOf(request({ "cf-connecting-ip": "10.0.0.3" }), undefined, socketOnly),
      ).toBe("unknown");
    });
  });

  describe("behind load balancers that append to x-forwarded-for", () => {
    // What reached us: the client claimed 10.6.6.6, the CDN saw 203.0.113.9 and the load
    // balancer saw the CDN at 198.51.100.2; the socket is the load balancer.
    const chain = request({ "x-forwarded-for": "10.6.6.6, 203.0.113.9, 198.51.100.2" });

    it.each([
      [0, SOCKET],
      [1, "198.51.100.2"],
      [2, "203.0.113.9"],
      [3, "10.6.6.6"],
    ])("with %i trusted hops takes %s", (trustedHops, address) => {
      expect(clientAddressOf(chain, SOCKET, { trustedHops })).toBe(address);
    });

    it("takes the leftmost address when there are fewer entries than trusted hops", () => {
      expect(
        clientAddressOf(request({ "x-forwarded-for": "203.0.113.9" }), SOCKET, { trustedHops: 5 }),
      ).toBe("203.0.113.9");
      expect(clientAddressOf(request({}), SOCKET, { trustedHops: 2 })).toBe(SOCKET);
    });

    it("reads several x-forwarded-for headers as one list and skips empty entries", () => {
      const headers = new Headers();
      headers.append("x-forwarded-for", "10.6.6.6");
      headers.append("x-forwarded-for", "203.0.113.9,, ");
      expect(
        clientAddressOf(new Request("http://localhost:4321/", { headers }), SOCKET, {
          trustedHops: 1,
        }),
      ).toBe("203.0.113.9");
    });

    it("drops the port some load balancers add, so each connection is not a new client", () => {
      const withPorts = request({ "x-forwarded-for": "203.0.113.9:51234, [2001:db8:1:2::7]:443" });
      expect(clientAddressOf(withPorts, SOCKET, { trustedHops: 1 })).toBe("2001:db8:1:2::7");
      expect(clientAddressOf(withPorts, SOCKET, { trustedHops: 2 })).toBe("203.0.113.9");
    });

    it("passes IPv6 and IPv4-mapped addresses on as written (the API counts them per /64 and as IPv4)", () => {
      const ipv6 = request({ "x-forwarded-for": "2001:db8:1:2::7, ::ffff:203.0.113.9" });
      expect(clientAddressOf(ipv6, "::ffff:10.0.0.1", { trustedHops: 2 })).toBe("2001:db8:1:2::7");
      expect(clientAddressOf(ipv6, "::ffff:10.0.0.1", { trustedHops: 1 })).toBe(
        "::ffff:203.0.113.9",
      );
      expect(clientAddressOf(ipv6, "::ffff:10.0.0.1", { trustedHops: 0 })).toBe("::ffff:10.0.0.1");
    });
  });

  describe("behind a CDN that sets its own header (CLIENT_ADDRESS_HEADER=cf-connecting-ip)", () => {
    const cdn: ClientAddressRule = { header: "cf-connecting-ip" };

    it("takes the header, not x-forwarded-for", () => {
      const headers = { "cf-connecting-ip": " 2001:db8:1:2::7 ", "x-forwarded-for": "10.6.6.6" };
      expect(clientAddressOf(request(headers), undefined, cdn)).toBe("2001:db8:1:2::7");
    });

    it("falls back to the socket when the header is missing (the request did not come through the CDN)", () => {
      expect(clientAddressOf(request({ "x-forwarded-for": "10.6.6.6" }), SOCKET, cdn)).toBe(SOCKET);
      expect(clientAddressOf(request({ "cf-connecting-ip": "" }), undefined, cdn)).toBe("unknown");
    });
  });
});
