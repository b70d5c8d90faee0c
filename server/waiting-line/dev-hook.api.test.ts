import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { waitingLine } from "../db/schema.ts";
import { createApiHarness, type ApiHarness } from "../testing/api-harness.test-kit.ts";
import { holdTheDoor } from "./line-store.ts";

// The development hook that holds the line at the door (decision 193): how a journey sees the
// waiting page without a crowd. Development routes are mounted only with an outbox folder, as the
// portal mounts them outside production.
let api: ApiHarness;
let outboxDir: string;

beforeAll(async () => {
  outboxDir = await mkdtemp(join(tmpdir(), "dev-hook-outbox-"));
  api = await createApiHarness({ outboxDir });
});
afterAll(async () => {
  try {
    await api?.close();
  } finally {
    await rm(outboxDir, { recursive: true, force: true });
  }
});
beforeEach(() => holdTheDoor(api.db, false));

async function heldSince() {
  const [row] = await api.db
    .select({ heldSince: waitingLine.heldSince })
    .from(waitingLine)
    .where(eq(waitingLine.id, 1));
  return row!.heldSince;
}

/** The hook as the proxy passes on a call from a browser or journey on this machine. */
const postHook = (body: string, init: { clientAddress?: string; contentType?: string } = {}) =>
  api.request("/dev/waiting-line", {
    method: "POST",
    headers: { "content-type": init.contentType ?? "application/json" },
    body,
    clientAddress: init.clientAddress ?? "127.0.0.1",
  });

describe("holding the door from this machine", () => {
  it("holds the door and lets it go", async () => {
    const held = await postHook(JSON.stringify({ hold: true }));
    expect(held.status).toBe(200);
    expect(await held.json()).toEqual({ status: "success", data: { held: true } });
    const since = await heldSince();
    expect(since).toBeInstanceOf(Date);

    // Holding a held door keeps when it was first held.
    expect((await postHook(JSON.stringify({ hold: true }))).status).toBe(200);
    expect(await heldSince()).toEqual(since);

    const open = await postHook(JSON.stringify({ hold: false }));
    expect(open.status).toBe(200);
    expect(await open.json()).toEqual({ status: "success", data: { held: false } });
    expect(await heldSince()).toBeNull();
  });

  it.each([
    ["without hold", "{}", "hold"],
    ["with hold as text", JSON.stringify({ hold: "false" }), "hold"],
    ["with hold as a number", JSON.stringify({ hold: 1 }), "hold"],
    ["with a field it does not know", JSON.stringify({ hold: false, door: "open" }), "body"],
  ])("refuses a body %s in the API's error shape and changes nothing", async (_, body, field) => {
    for (const hold of [true, false]) {
      await holdTheDoor(api.db, hold);
      const before = await heldSince();
      const answer = await postHook(body);
      expect(answer.status).toBe(400);
      const refusal = await answer.json();
      expect(refusal).toEqual({
        status: "error",
        message: expect.any(String),
        error: { message: refusal.message, fields: { [field]: expect.any(String) } },
      });
      expect(await heldSince()).toEqual(before);
    }
  });

  it("refuses a body that is not JSON, and one not labelled as JSON, and changes nothing", async () => {
    await holdTheDoor(api.db, true);
    const before = await heldSince();
    const notJson = await postHook("hold=false");
    expect(notJson.status).toBe(400);
    expect(await notJson.json()).toEqual({
      status: "error",
      message: "The request body must be JSON.",
      error: { message: "The request body must be JSON." },
    });
    const unlabelled = await postHook(JSON.stringify({ hold: false }), {
      contentType: "text/plain",
    });
    expect(unlabelled.status).toBe(415);
    expect((await unlabelled.json()).status).toBe("error");
    expect(await heldSince()).toEqual(before);
  });
});

describe("holding the door from anywhere else", () => {
  const nothingHere = {
    status: "error",
    message: "There is nothing at this address.",
    error: { message: "There is nothing at this address." },
  };

  it("answers a client on another machine as if there were nothing there, and changes nothing", async () => {
    const answer = await postHook(JSON.stringify({ hold: true }), {
      clientAddress: "203.0.113.7",
    });
    expect(answer.status).toBe(404);
    expect(await answer.json()).toEqual(nothingHere);
    expect(await heldSince()).toBeNull();
  });

  it("does not believe a loopback x-forwarded-for without the proxy's secret", async () => {
    const spoofed = await api.app.request(
      "/dev/waiting-line",
      {
        method: "POST",
        headers: { "content-type": "application/json", "x-forwarded-for": "127.0.0.1" },
        body: JSON.stringify({ hold: true }),
      },
      { incoming: { socket: { remoteAddress: "203.0.113.7" } } },
    );
    expect(spoofed.status).toBe(404);
    expect(await spoofed.json()).toEqual(nothingHere);
    expect(await heldSince()).toBeNull();
  });

  it("is not there at all without development routes (production)", async () => {
    const production = await createApiHarness();
    try {
      const answer = await production.request("/dev/waiting-line", {
        method: "POST",
        json: { hold: true },
        clientAddress: "127.0.0.1",
      });
      expect(answer.status).toBe(404);
      expect(await answer.json()).toEqual(nothingHere);
    } finally {
      await production.close();
    }
  });
});
