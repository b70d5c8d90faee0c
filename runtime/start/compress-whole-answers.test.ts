import { gunzipSync } from "node:zlib";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { acceptsGzip, compressWholeAnswers } from "./compress-whole-answers.ts";

const page =
  "<!doctype html><title>Dashboard</title>" + "<p>Welcome to the portal.</p>".repeat(200);

function portal() {
  const app = new Hono();
  app.use(compressWholeAnswers());
  app.get("/page", (c) => {
    c.header("set-cookie", "first=1; Path=/", { append: true });
    c.header("set-cookie", "second=2; Path=/", { append: true });
    return c.html(page, 201);
  });
  app.get("/small", (c) => c.json({ status: "success" }));
  app.get("/large", (c) => c.text("0123456789abcdef".repeat(40_000)));
  app.get("/photo", (c) =>
    c.body(new Uint8Array(4096).fill(7), 200, { "content-type": "image/jpeg" }),
  );
  app.get("/already", (c) =>
    c.body(new Uint8Array(4096).fill(1), 200, {
      "content-type": "text/html",
      "content-encoding": "br",
    }),
  );
  app.get("/no-transform", (c) =>
    c.body(page, 200, { "content-type": "text/html", "cache-control": "no-transform" }),
  );
  return app;
}

const get = (path: string, acceptEncoding?: string, method = "GET") =>
  portal().request(path, {
    method,
    headers: acceptEncoding ? { "accept-encoding": acceptEncoding } : {},
  });

describe("compressWholeAnswers (the proxy on Node)", () => {
  it("sends a page gzipped in one piece with its length, keeping its status and every cookie", async () => {
    const answer = await get("/page", "gzip, deflate, br");
    expect(answer.status).toBe(201);
    expect(answer.headers.get("content-encoding")).toBe("gzip");
    expect(answer.headers.get("vary")).toBe("Accept-Encoding");
    expect(answer.headers.getSetCookie()).toEqual(["first=1; Path=/", "second=2; Path=/"]);
    const zipped = Buffer.from(await answer.arrayBuffer());
    expect(Number(answer.headers.get("content-length"))).toBe(zipped.byteLength);
    expect(zipped.byteLength).toBeLessThan(page.length / 4);
    expect(gunzipSync(zipped).toString()).toBe(page);
  });

  it("sends the page as it is to a client that does not take gzip", async () => {
    for (const acceptEncoding of [undefined, "identity", "br", "gzip;q=0", "*;q=0"]) {
      const answer = await get("/page", acceptEncoding);
      expect(answer.headers.get("content-encoding"), acceptEncoding).toBeNull();
      expect(answer.headers.get("vary"), acceptEncoding).toBe("Accept-Encoding");
      expect(await answer.text()).toBe(page);
    }
  });

  it("leaves an answer under a kilobyte uncompressed", async () => {
    const answer = await get("/small", "gzip");
    expect(answer.headers.get("content-encoding")).toBeNull();
    expect(await answer.json()).toEqual({ status: "success" });
    expect(answer.headers.get("content-length")).toBe(
      String(JSON.stringify({ status: "success" }).length),
    );
  });

  it("compresses a large answer too (off the event loop), and it arrives whole", async () => {
    const answer = await get("/large", "gzip");
    expect(answer.headers.get("content-encoding")).toBe("gzip");
    expect(gunzipSync(Buffer.from(await answer.arrayBuffer())).toString()).toBe(
      "0123456789abcdef".repeat(40_000),
    );
  });

  it("leaves alone what must not or need not be compressed: photos, encoded answers, no-transform, HEAD", async () => {
    for (const path of ["/photo", "/already", "/no-transform"]) {
      const answer = await get(path, "gzip");
      expect(answer.headers.get("content-encoding"), path).toBe(path === "/already" ? "br" : null);
      expect(answer.headers.get("vary"), path).toBeNull();
    }
    const head = await get("/page", "gzip", "HEAD");
    expect(head.headers.get("content-encoding")).toBeNull();
  });
});

describe("acceptsGzip", () => {
  it("reads Accept-Encoding as browsers and tools send it", () => {
    expect(acceptsGzip("gzip, deflate, br, zstd")).toBe(true);
    expect(acceptsGzip("br;q=1.0, gzip;q=0.8, *;q=0.1")).toBe(true);
    expect(acceptsGzip("GZIP")).toBe(true);
    expect(acceptsGzip("*")).toBe(true);
    expect(acceptsGzip("gzip;q=0")).toBe(false);
    expect(acceptsGzip("gzip;q=0, *")).toBe(false);
    expect(acceptsGzip("*;q=0")).toBe(false);
    expect(acceptsGzip("identity")).toBe(false);
    expect(acceptsGzip("")).toBe(false);
    expect(acceptsGzip(undefined)).toBe(false);
  });

  it("reads a malformed header without throwing, as hono's own compress() does", () => {
    expect(acceptsGzip(",,,")).toBe(false);
    expect(acceptsGzip(";;")).toBe(false);
    // A weight that is not a number counts as 1.
    expect(acceptsGzip("gzip;q=abc")).toBe(true);
  });
});
