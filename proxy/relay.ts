// Headers that describe one hop, not the message; they must not be copied across the proxy.
const HOP_BY_HOP = [
  "connection",
  "keep-alive",
  "proxy-connection",
  "transfer-encoding",
  "upgrade",
  "te",
  "trailer",
  "host",
  "content-length",
  // fetch() cannot answer "100-continue"; curl sends it on large uploads.
  "expect",
];

export type Fetch = (request: Request) => Promise<Response>;

/**
 * Sends the incoming request on to an upstream origin and returns its answer, with one-hop
 * headers dropped both ways. `adjust` edits the outgoing headers (cookie ⇄ bearer, client address).
 */
export async function relay(
  fetchUpstream: Fetch,
  incoming: Request,
  upstreamUrl: string,
  adjust: (headers: Headers) => void,
): Promise<Response> {
  const headers = new Headers(incoming.headers);
  for (const name of HOP_BY_HOP) headers.delete(name);
  adjust(headers);
  const hasBody = !["GET", "HEAD"].includes(incoming.method);
  const upstream = await fetchUpstream(
    new Request(upstreamUrl, {
      method: incoming.method,
      headers,
      body: hasBody ? incoming.body : undefined,
      redirect: "manual",
      // Node's fetch needs this to stream a request body.
      ...(hasBody ? { duplex: "half" } : {}),
    } as RequestInit),
  );
  const responseHeaders = new Headers(upstream.headers);
  // fetch() already decoded any compressed body; the proxy compresses again on the way out.
  for (const name of [...HOP_BY_HOP, "content-encoding"]) responseHeaders.delete(name);
  return new Response(upstream.body, {
    status: upstream.status,
    statusText: upstream.statusText,
    headers: responseHeaders,
  });
}
