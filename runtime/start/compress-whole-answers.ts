import { promisify } from "node:util";
import { gzip, gzipSync } from "node:zlib";
import type { MiddlewareHandler } from "hono";
import { parseAccept } from "hono/utils/accept";
import { COMPRESSIBLE_CONTENT_TYPE_REGEX } from "hono/utils/compress";
import { bodyBytes, hasBody } from "../../common/http/body-as-made.ts";
import { replaceAnswer, setAnswerHeader } from "../../common/http/answer-in-place.ts";

const gzipInPool = promisify(gzip);

/** Smaller answers go as they are: compressed, they would still take the same one packet. */
const THRESHOLD_BYTES = 1024;
/** Compressed on the event loop up to this size (tens of microseconds); larger ones on libuv's pool. */
const ON_THE_LOOP_BYTES = 256 * 1024;
const NO_TRANSFORM = /(?:^|,)\s*no-transform\s*(?:,|$)/i;
const VARIES_BY_ENCODING = /(?:^|,)\s*accept-encoding\s*(?:,|$)/i;

/** Whether `accepted` (an Accept-Encoding header) takes gzip: named, or by `*`, with a weight above 0. */
export function acceptsGzip(accepted: string | undefined): boolean {
  if (!accepted) return false;
  const encodings = parseAccept(accepted);
  const gzip =
    encodings.find((entry) => entry.type.toLowerCase() === "gzip") ??
    encodings.find((entry) => entry.type === "*");
  return (gzip?.q ?? 0) > 0;
}

/**
 * Gzip for the proxy on Node, in place of hono's `compress()` (a CompressionStream per answer,
 * which the edge runtimes keep). Every answer the portal makes is whole before it leaves (pages
 * are not streamed, API answers are JSON), so each is compressed in one call and sent with its
 * length: one write of headers and body instead of headers, then chunks, then the stream's end,
 * and no deflate state for answers too small to gain from it (decision 112).
 */
export function compressWholeAnswers(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const answer = c.res;
    const type = answer.headers.get("content-type");
    if (
      !hasBody(answer) ||
      answer.status === 206 ||
      c.req.method === "HEAD" ||
      answer.headers.has("content-encoding") ||
      !type ||
      !COMPRESSIBLE_CONTENT_TYPE_REGEX.test(type) ||
      NO_TRANSFORM.test(answer.headers.get("cache-control") ?? "")
    ) {
      return;
    }
    const vary = answer.headers.get("vary");
    if (vary !== "*" && !(vary && VARIES_BY_ENCODING.test(vary)))
      setAnswerHeader(c, "vary", vary ? `${vary}, Accept-Encoding` : "Accept-Encoding");
    // A client that takes no gzip gets the answer as it came.
    if (!acceptsGzip(c.req.header("accept-encoding"))) return;
    const body = await bodyBytes(answer);
    const headers = new Headers(answer.headers);
    // No statusText: HTTP/1.1's reason phrase is the status's own, and asking for it would build
    // the full Response this module avoids.
    const init = { status: answer.status, headers };
    headers.delete("transfer-encoding");
    if (body.byteLength < THRESHOLD_BYTES) {
      headers.set("content-length", String(body.byteLength));
      replaceAnswer(c, new Response(body, init));
      return;
    }
    const zipped = body.byteLength <= ON_THE_LOOP_BYTES ? gzipSync(body) : await gzipInPool(body);
    headers.set("content-encoding", "gzip");
    headers.set("content-length", String(zipped.byteLength));
    const etag = headers.get("etag");
    if (etag && !etag.startsWith("W/")) headers.set("etag", `W/${etag}`);
    replaceAnswer(c, new Response(zipped, init));
  };
}
