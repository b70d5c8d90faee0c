import { describe, expect, it } from "vitest";
import { BIODATA_BODY_LIMIT, JSON_BODY_LIMIT } from "../common/http/body-limits.ts";
import { recordingProxy } from "./recording-proxy.test-kit.ts";

const ORIGIN = "http://localhost:4321";

/** A body of `size` bytes sent without Content-Length, as a chunked upload arrives. */
function chunked(size: number, chunkSize = 16 * 1024) {
  let left = size;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (left <= 0) return controller.close();
      const chunk = new Uint8Array(Math.min(chunkSize, left)).fill(0x61);
      left -= chunk.length;
      controller.enqueue(chunk);
    },
  });
}

function post(path: string, body: BodyInit, init: RequestInit = {}) {
  return {
    method: "POST",
    ...init,
    headers: { origin: ORIGIN, "content-type": "application/json", ...init.headers },
    body,
    duplex: "half",
  } as RequestInit;
}

describe("bodies over the API's limits are refused with 413 before anything is relayed", () => {
  it.each([
    ["/api/student/uniben/login", "declared", "x".repeat(JSON_BODY_LIMIT + 1)],
    ["/api/complaint/", "chunked", chunked(JSON_BODY_LIMIT + 1)],
    ["/api/courses/register", "chunked", chunked(3 * 1024 * 1024)],
  ])("%s (%s length): JSON in the API's error shape", async (path, _how, body) => {
    const { app, sent } = recordingProxy();
    const response = await app.request(`${ORIGIN}${path}`, post(path, body));
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({
      status: "error",
      message: "That request is too large. Shorten what you typed and try again.",
      error: { message: "That request is too large. Shorten what you typed and try again." },
    });
    expect(sent).toHaveLength(0);
  });

  it.each(["/login", "/complaint", "/reset-password", "/password/reset/MQ/abc-def"])(
    "the form post to %s gets a small page saying so",
    async (path) => {
      const { app, sent } = recordingProxy();
      const form = `message=${"y".repeat(100_000)}`;
      const response = await app.request(
        `${ORIGIN}${path}`,
        post(path, form, { headers: { "content-type": "application/x-www-form-urlencoded" } }),
      );
      expect(response.status).toBe(413);
      expect(response.headers.get("content-type")).toMatch(/^text\/html/);
      expect(await response.text()).toContain("That request is too large.");
      expect(sent).toHaveLength(0);
    },
  );

  it("lets the Update Biodata page form through with a photo up to 5 MiB, and refuses one byte more", async () => {
    const form = (size: number) =>
      post("/biodata", chunked(size), {
        headers: { "content-type": "multipart/form-data; boundary=x" },
      });
    const { app, sent } = recordingProxy();
    expect((await app.request(`${ORIGIN}/biodata`, form(BIODATA_BODY_LIMIT))).status).toBe(200);
    expect((await sent[0]!.arrayBuffer()).byteLength).toBe(BIODATA_BODY_LIMIT);
    const refused = await app.request(`${ORIGIN}/biodata`, form(BIODATA_BODY_LIMIT + 1));
    expect(refused.status).toBe(413);
    expect(await refused.text()).toContain(
      "The photo is larger than 5 MB. Choose a smaller photo.",
    );
    // Only that page: other page forms keep the small limit.
    const other = await app.request(`${ORIGIN}/biodata/confirm/x`, form(JSON_BODY_LIMIT + 1));
    expect(other.status).toBe(413);
    expect(sent).toHaveLength(1);
  });

  it("lets a biodata form with a photo at the 5 MiB limit through, and refuses one byte more", async () => {
    const path = "/api/student/biodata-update/7";
    const patch = (size: number) =>
      post(path, chunked(size), {
        method: "PATCH",
        headers: { "content-type": "multipart/form-data; boundary=x" },
      });
    const { app, sent } = recordingProxy();
    expect((await app.request(`${ORIGIN}${path}`, patch(BIODATA_BODY_LIMIT))).status).toBe(200);
    expect((await sent[0]!.arrayBuffer()).byteLength).toBe(BIODATA_BODY_LIMIT);

    const refused = await app.request(`${ORIGIN}${path}`, patch(BIODATA_BODY_LIMIT + 1));
    expect(refused.status).toBe(413);
    expect((await refused.json()).error.fields).toEqual({
      photo: "The photo is larger than 5 MB. Choose a smaller photo.",
    });
    expect(sent).toHaveLength(1);
  });

  it("holds the JSON limit on every other API call, whatever content type it claims", async () => {
    const { app, sent } = recordingProxy();
    const response = await app.request(
      `${ORIGIN}/api/student/uniben/login`,
      post("", chunked(JSON_BODY_LIMIT + 1), {
        headers: { "content-type": "multipart/form-data; boundary=x" },
      }),
    );
    expect(response.status).toBe(413);
    expect(sent).toHaveLength(0);
  });

  it("relays a body at the limit whole", async () => {
    const { app, sent } = recordingProxy();
    const response = await app.request(
      `${ORIGIN}/api/complaint/`,
      post("", chunked(JSON_BODY_LIMIT)),
    );
    expect(response.status).toBe(200);
    expect((await sent[0]!.arrayBuffer()).byteLength).toBe(JSON_BODY_LIMIT);
  });
});
