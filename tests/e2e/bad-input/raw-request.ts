import http from "node:http";

export type RawRequest = {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: Buffer;
  /** Send the body without Content-Length (Transfer-Encoding: chunked), in 64 KiB pieces. */
  chunked?: boolean;
};

/** What came back: a status, or the socket error (a reset, a hang-up) instead of an answer. */
export type RawOutcome = { status: number } | { error: string };

/**
 * One request on its own connection, with node:http rather than fetch: it sends exactly the
 * bytes and framing given (chunked or not, any content type) and reports a dropped connection.
 */
export function sendRaw(origin: string, request: RawRequest): Promise<RawOutcome> {
  const { body, chunked = false } = request;
  const headers: Record<string, string> = { ...request.headers };
  if (body && !chunked) headers["content-length"] = String(body.length);
  return new Promise((resolve) => {
    const outgoing = http.request(
      new URL(request.path, origin),
      { method: request.method, headers, agent: false },
      (response) => {
        response.resume();
        response.on("end", () => resolve({ status: response.statusCode ?? 0 }));
        response.on("error", (error) => resolve({ error: errorName(error) }));
      },
    );
    outgoing.on("error", (error) => resolve({ error: errorName(error) }));
    outgoing.setTimeout(20_000, () => outgoing.destroy(new Error("timed out")));
    if (body && chunked) {
      for (let offset = 0; offset < body.length; offset += 64 * 1024) {
        outgoing.write(body.subarray(offset, offset + 64 * 1024));
      }
    } else if (body) {
      outgoing.write(body);
    }
    outgoing.end();
  });
}

const errorName = (error: Error) => (error as NodeJS.ErrnoException).code ?? error.message;
