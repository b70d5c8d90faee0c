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
  /** False when `fetchUpstream` hands over bodies as the upstream sent them (an in-process call). */
  upstreamDecodes = true,
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
  if (!upstreamDecodes) {
    try {
      // An in-process answer is handed on as it is, headers trimmed in place: copying it into a
      // new Response would turn a ready string body into a stream to pump, on every request.
      for (const name of HOP_BY_HOP) upstream.headers.delete(name);
      return upstream;
    } catch {
      // Its headers are immutable (it came from fetch() after all): copy it below.
    }
  }
  const responseHeaders = new Headers(upstream.headers);
  for (const name of HOP_BY_HOP) responseHeaders.delete(name);
  // fetch() already decoded any compressed body; the proxy compresses again on the way out. An
  // in-process upstream's body is still encoded (a precompressed asset) and keeps its label.
  if (upstreamDecodes) responseHeaders.delete("content-encoding");
  return new Response(upstream.body, {
    status: upstream.status,
    statusText: upstream.statusText,
    headers: responseHeaders,
  });
}
