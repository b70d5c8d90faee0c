import { isIPv4, isIPv6 } from "node:net";
import { sentByProxy } from "../../common/http/sent-by-proxy.server.ts";

/**
 * The client's address as the API may believe it (decision 122): the one our proxy passes on in
 * x-forwarded-for, when the request carries the proxy's shared secret; otherwise the address of
 * the socket the request came in on, or "unknown" when there is none (an in-process call). So a
 * caller that reaches the API directly cannot name a new address, and a new rate-limit bucket,
 * with each try.
 */
export function clientAddressOf(
  request: Request,
  socketAddress: string | undefined,
  proxySecret: string | undefined,
): string {
  if (sentByProxy(request.headers, proxySecret)) {
    // The proxy sends exactly one address; anything after a comma was not written by it.
    const forwarded = request.headers.get("x-forwarded-for")?.split(",")[0]?.trim();
    if (forwarded) return forwarded;
  }
  return socketAddress || "unknown";
}

/**
 * Who a rate limit counts as one client: an IPv4 address, or an IPv6 address's /64 network.
 * One home or phone is handed a whole /64, so counting single IPv6 addresses would give each
 * attacker billions of fresh buckets.
 */
export function clientNetwork(address: string) {
  const mappedIPv4 = mappedIPv4Of(address);
  if (mappedIPv4) return mappedIPv4;
  if (!isIPv6(address)) return address;
  return `${ipv6Groups(address).slice(0, 4).join(":")}::/64`;
}

/** The developer's own machine: 127.0.0.0/8 or ::1, however written. */
export function isLoopback(address: string) {
  const ipv4 = mappedIPv4Of(address) ?? (isIPv4(address) ? address : undefined);
  if (ipv4) return ipv4.startsWith("127.");
  return isIPv6(address) && ipv6Groups(address).join(":") === "0:0:0:0:0:0:0:1";
}

/** "::ffff:198.51.100.7" is an IPv4 client on a dual-stack socket: the same client as "198.51.100.7". */
function mappedIPv4Of(address: string) {
  const mapped = /^(?:0{0,4}:){0,5}:?ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  return mapped && isIPv6(address) && isIPv4(mapped) ? mapped : undefined;
}

/** The eight 16-bit groups of an IPv6 address, "::" expanded, without leading zeros. */
function ipv6Groups(address: string) {
  const [head = "", tail] = address.toLowerCase().split("%")[0]!.split("::");
  const headGroups = head ? head.split(":") : [];
  const tailGroups = tail ? tail.split(":") : [];
  const zeros = Array(8 - headGroups.length - tailGroups.length).fill("0");
  const groups = tail === undefined ? headGroups : [...headGroups, ...zeros, ...tailGroups];
  return groups.map((group) => group.replace(/^0+(?=.)/, ""));
}
