import type { AddressInfo } from "node:net";
import { serve, type ServerType } from "@hono/node-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createProxy } from "../../proxy/app.ts";
import { SESSION_COOKIE } from "../../common/session/cookie.ts";
import { makeImage } from "../uploads/images.test-kit.ts";
import { createBiodataHarness, type BiodataHarness } from "./biodata.test-kit.ts";

// The browser reaches the API through the proxy, whose fetch streams the upload on. Refusals the
// API sends before (or without) reading the whole body must still arrive as answers, so they are
// checked here over real HTTP, through the real proxy.

let h: BiodataHarness;
let server: ServerType;
let proxy: ReturnType<typeof createProxy>;
let apiUrl: string;
const origin = "http://portal.test";

beforeAll(async () => {
  h = await createBiodataHarness();
  server = serve({ fetch: h.api.app.fetch, port: 0, hostname: "127.0.0.1" });
  await new Promise((resolve) => server.once("listening", resolve));
  apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy = createProxy({
    publicOrigin: origin,
    apiUrl,
    pagesUrl: "http://127.0.0.1:9",
  });
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await h.api.close();
});

type Upload = { id: number; photo: Uint8Array; token?: string; chunkDelayMs?: number };

/** Sends the form through the proxy; with chunkDelayMs, 16 KB at a time as a slow phone would. */
async function upload({ id, photo, token = h.token, chunkDelayMs = 0 }: Upload) {
  const form = new FormData();
  form.append("religion", "Islam");
  form.append("photo", new File([new Uint8Array(photo)], "passport.jpg", { type: "image/jpeg" }));
  const encoded = new Response(form);
  const bytes = new Uint8Array(await encoded.arrayBuffer());
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      for (let offset = 0; offset < bytes.length; offset += 16 * 1024) {
        if (chunkDelayMs) await new Promise((resolve) => setTimeout(resolve, chunkDelayMs));
        controller.enqueue(bytes.subarray(offset, offset + 16 * 1024));
      }
      controller.close();
    },
  });
  return proxy.request(`${origin}/api/student/biodata-update/${id}`, {
    method: "PATCH",
    headers: {
      origin,
      cookie: `${SESSION_COOKIE}=${token}`,
      "content-type": encoded.headers.get("content-type")!,
    },
    body,
    duplex: "half",
  } as RequestInit);
}

const padded = async (totalBytes: number) => {
  const jpeg = await makeImage(300, 300, "jpeg");
  return Buffer.concat([jpeg, Buffer.alloc(totalBytes - jpeg.length)]);
};

describe("a refused upload gets its answer through the proxy, not a broken connection", () => {
  // The slow uploads take over a second: longer than the API server waits for a body it has
  // already answered before closing the connection.
  it.each([
    {
      case: "a 20 MB upload",
      status: 413,
      send: async () => ({ id: h.me.id, photo: await padded(20 * 1024 * 1024) }),
    },
    {
      case: "a slow upload for another student's id",
      status: 403,
      send: async () => ({ id: h.other.id, photo: await padded(300_000), chunkDelayMs: 60 }),
    },
    {
      case: "a slow upload with an ended session",
      status: 401,
      send: async () => ({
        id: h.me.id,
        photo: await padded(300_000),
        chunkDelayMs: 60,
        token: "x".repeat(43),
      }),
    },
  ])("$case ($status)", async ({ status, send }) => {
    const before = await h.snapshot();

    const response = await upload(await send());

    expect(response.status).toBe(status);
    expect((await response.json()).status).toBe("error");
    expect(await h.snapshot()).toEqual(before);
  });

  it("sent straight to the API with a content-length over the limit (413)", async () => {
    const form = new FormData();
    form.append("photo", new File([new Uint8Array(await padded(8 * 1024 * 1024))], "passport.jpg"));
    const response = await fetch(`${apiUrl}/student/biodata-update/${h.me.id}`, {
      method: "PATCH",
      headers: { authorization: `Bearer ${h.token}` },
      body: form,
    });
    expect(response.status).toBe(413);
    expect((await response.json()).error.message).toBe(
      "The photo is larger than 5 MB. Choose a smaller photo.",
    );
  });

  it("and an accepted photo is saved", async () => {
    const response = await upload({ id: h.me.id, photo: await makeImage(800, 800, "webp") });
    expect(response.status).toBe(200);
    expect((await response.json()).data.religion).toBe("Islam");
  });
});
