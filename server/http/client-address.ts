import { isIPv4, isIPv6 } from "node:net";

/** The client's address as the proxy in front reports it; the API is never exposed directly. */
export function clientAddress(request: Request) {
  const forwarded = request.headers.get("x-forwarded-for") ?? "";
  return forwarded.split(",")[0]?.trim() || "unknown";
}

/**
 * Who a rate limit counts as one client: an IPv4 address, or an IPv6 address's /64 network.
 * One home or phone is handed a whole /64, so counting single IPv6 addresses would give each
 * attacker billions of fresh buckets.
 */
export function clientNetwork(request: Request) {
  const address = clientAddress(request);
  const mappedIPv4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mappedIPv4 && isIPv4(mappedIPv4)) return mappedIPv4;
  if (!isIPv6(address)) return address;
  return `${ipv6Groups(address).slice(0, 4).join(":")}::/64`;
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
