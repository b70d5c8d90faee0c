import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { Hono } from "hono";
import { compressWholeAnswers } from "../../runtime/start/compress-whole-answers.ts";
import { replaceAnswer, setAnswerHeader } from "./answer-in-place.ts";
import { bodyAsMade } from "./body-as-made.ts";
import { withServingAdapterResponse } from "./serving-adapter.test-kit.ts";

withServingAdapterResponse();

const page = `<!doctype html><main>${"<p>Registration is open.</p>".repeat(200)}</main>`;

describe("changing an answer after the handler", () => {
  it("keeps a page made from a string readable as made, through headers and gzip", async () => {
    const app = new Hono();
    app.use(async (c, next) => {
      await next();
      setAnswerHeader(c, "x-request-id", "r-1");
    });
    app.use(compressWholeAnswers());
    app.get("/", (c) => c.html(page));
    const answer = await app.request("/", { headers: { "accept-encoding": "gzip" } });
    expect(answer.headers.get("x-request-id")).toBe("r-1");
    expect(answer.headers.get("content-encoding")).toBe("gzip");
    expect(answer.headers.get("vary")).toBe("Accept-Encoding");
    // Bytes for the server to write at once, not a stream to pump.
    const made = bodyAsMade(answer)?.body;
    expect(made).toBeInstanceOf(Uint8Array);
    expect(gunzipSync(made as Uint8Array).toString()).toBe(page);
  });

  it("replaces an answer with the new one as it was made, headers as the caller set them", async () => {
    const app = new Hono();
    app.use(async (c, next) => {
      await next();
      replaceAnswer(c, new Response("replaced", { status: 202, headers: { "x-kept": "yes" } }));
    });
    app.get("/", (c) => c.text("first"));
    const answer = await app.request("/");
    expect(answer.status).toBe(202);
    expect(answer.headers.get("x-kept")).toBe("yes");
    expect(bodyAsMade(answer)).toEqual({ body: "replaced" });
  });
});
