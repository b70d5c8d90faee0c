/**
 * How the proxy finds the student's address (decision 122), from its settings:
 * - `{ trustedHops: 0 }` (the default): the socket's. Nothing in front, so headers are the client's words.
 * - `{ trustedHops: N }`: N load balancers or CDNs in front, each appending the address it saw to
 *   x-forwarded-for. The entry N hops from the right, the socket being the last hop; entries
 *   further left were written by the client and could say anything.
 * - `{ header: "cf-connecting-ip" }`: a CDN in front that sets this header itself, overwriting any
 *   the client sent.
 * Web-standard code only: the proxy runs on edge runtimes, which have no node:net.
 */
export type ClientAddressRule = { trustedHops: number } | { header: string };

export const SOCKET_ADDRESS: ClientAddressRule = { trustedHops: 0 };

/** The client's address, or "unknown" when nothing says (an edge runtime with no rule for it). */
export function clientAddressOf(
  request: Request,
  socketAddress: string | undefined,
  rule: ClientAddressRule,
): string {
  if ("header" in rule) {
    // Without the header the request did not come through the CDN: the socket is all we know.
    return withoutPort(request.headers.get(rule.header) ?? "") || socketAddress || "unknown";
  }
  if (rule.trustedHops === 0) return socketAddress || "unknown";
  const chain = [...forwardedFor(request), socketAddress || "unknown"];
  // Fewer entries than hops: the request skipped a proxy that should be in front; the leftmost
  // address is the furthest any hop reported. Only the network can stop requests skipping it.
  return chain[Math.max(0, chain.length - 1 - rule.trustedHops)]!;
}

/** x-forwarded-for's entries, left to right; several headers count as one list. */
function forwardedFor(request: Request) {
  return (request.headers.get("x-forwarded-for") ?? "").split(",").map(withoutPort).filter(Boolean);
}

/**
 * Some load balancers write "203.0.113.7:51234" or "[2001:db8::1]:443". The port changes with
 * every connection, so keeping it would give each connection its own rate-limit bucket.
 */
function withoutPort(entry: string) {
  const value = entry.trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(value);
  if (bracketed) return bracketed[1]!;
  const ipv4WithPort = /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/.exec(value);
  return ipv4WithPort ? ipv4WithPort[1]! : value;
}
