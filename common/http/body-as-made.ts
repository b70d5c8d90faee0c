/**
 * Reading answers made in this process without a round trip through a stream (decision 194).
 *
 * Once @hono/node-server serves, the global Response is its lightweight one: it keeps the string
 * or bytes it was made from until something asks for more than status and headers. Asking it for
 * `arrayBuffer()` or `json()` builds a full Response, a ReadableStream over the body, and reads the
 * stream back: on the signed-in dashboard, a tenth of the portal's CPU went there, twice a page
 * (the page's HTML on its way to gzip, the API's JSON on its way to the page). What it was made
 * from is read here instead; any other answer (fetched over HTTP, a stream, a file) is read the
 * usual way.
 */

/** The key under which the lightweight Response keeps `[status, body, headers]` until it is read. */
const MADE_FROM = "cache";
let madeFromKey: symbol | undefined;

/**
 * What `response` was made from, when that was a string, bytes or nothing; undefined when it was
 * not made that way (a stream, a file, an answer fetched over HTTP) or has been read already,
 * which drops what it was made from. Asking does not read it: `response.body` would.
 */
export function bodyAsMade(response: Response): { body: string | Uint8Array | null } | undefined {
  madeFromKey ??= Object.getOwnPropertySymbols(response).find(
    (key) => key.description === MADE_FROM,
  );
  if (!madeFromKey) return undefined;
  const madeFrom = (response as unknown as Record<symbol, unknown>)[madeFromKey];
  if (!Array.isArray(madeFrom)) return undefined;
  const body: unknown = madeFrom[1];
  return body === null || typeof body === "string" || body instanceof Uint8Array
    ? { body }
    : undefined;
}

/** Whether the answer has a body at all, without reading it. */
export function hasBody(response: Response): boolean {
  const made = bodyAsMade(response);
  return made ? made.body !== null : response.body !== null;
}

/** The whole body as bytes; the response counts as read afterwards. */
export async function bodyBytes(response: Response): Promise<Uint8Array<ArrayBuffer>> {
  const made = bodyAsMade(response)?.body;
  if (typeof made === "string") return new TextEncoder().encode(made);
  // Bytes a Response was made from are an ArrayBuffer's: a SharedArrayBuffer's cannot be a body.
  if (made) return made as Uint8Array<ArrayBuffer>;
  return new Uint8Array(await response.arrayBuffer());
}

/**
 * The body parsed as JSON, or null when it is not JSON (as `response.json().catch(() => null)`);
 * the response counts as read afterwards.
 */
export async function bodyJson(response: Response): Promise<unknown> {
  const made = bodyAsMade(response);
  if (!made) return response.json().catch(() => null);
  if (made.body === null) return null;
  try {
    return JSON.parse(
      typeof made.body === "string" ? made.body : new TextDecoder().decode(made.body),
    );
  } catch {
    return null;
  }
}
