import { describe, expect, it } from "vitest";
import { bodyAsMade, bodyBytes, bodyJson, hasBody } from "./body-as-made.ts";
import { withServingAdapterResponse } from "./serving-adapter.test-kit.ts";

// The Response undici makes, which the Node server adapter's lightweight one stands in for.
const nativeResponse = withServingAdapterResponse();

describe("reading an answer made in this process", () => {
  it("has the serving adapter's lightweight Response in place, which these read as made", () => {
    // If an upgrade of @hono/node-server renames what its Response keeps, this fails rather than
    // every page quietly going back to a stream.
    expect(globalThis.Response).not.toBe(nativeResponse());
    expect(bodyAsMade(new Response("<p>made</p>"))).toEqual({ body: "<p>made</p>" });
  });

  it("gives a page's HTML as bytes and an API's JSON parsed, string or bytes", async () => {
    const html = "<h1>Dashboard — ₦</h1>";
    expect(new TextDecoder().decode(await bodyBytes(new Response(html)))).toBe(html);
    const bytes = new TextEncoder().encode('{"data":{"id":7}}');
    expect(await bodyBytes(new Response(bytes))).toBe(bytes);
    expect(await bodyJson(new Response('{"data":{"id":7}}'))).toEqual({ data: { id: 7 } });
    expect(await bodyJson(new Response(bytes))).toEqual({ data: { id: 7 } });
  });

  it("answers null for a body that is not JSON, as response.json() refused would", async () => {
    expect(await bodyJson(new Response("<html>"))).toBeNull();
    expect(await bodyJson(new Response(null))).toBeNull();
  });

  it("tells an answer without a body from one with, without reading either", () => {
    const empty = new Response(null, { status: 204 });
    const full = new Response("x");
    expect(hasBody(empty)).toBe(false);
    expect(hasBody(full)).toBe(true);
    expect(bodyAsMade(full)).toEqual({ body: "x" });
  });

  it("reads any other answer the usual way: a stream, or one already read", async () => {
    const stream = new Response(
      new ReadableStream({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('{"ok":true}'));
          controller.close();
        },
      }),
    );
    expect(bodyAsMade(stream)).toBeUndefined();
    expect(hasBody(stream)).toBe(true);
    expect(await bodyJson(stream)).toEqual({ ok: true });

    const native = new (nativeResponse())("native body");
    expect(bodyAsMade(native)).toBeUndefined();
    expect(new TextDecoder().decode(await bodyBytes(native))).toBe("native body");

    const read = new Response("read once");
    expect(read.body).not.toBeNull(); // asking for the stream turns it into a full Response
    expect(bodyAsMade(read)).toBeUndefined();
    expect(new TextDecoder().decode(await bodyBytes(read))).toBe("read once");
  });
});
