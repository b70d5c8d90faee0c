import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiHarness, type ApiHarness } from "../testing/api-harness.test-kit.ts";
import { createOutboxMailer, readOutbox } from "./mailer.ts";

// The outbox holds every e-mail the portal sent, password links included (decision 123).
let api: ApiHarness;
let dir: string;
let messageId: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "outbox-loopback-"));
  await createOutboxMailer({ dir, from: "Portal <no-reply@college.test>" }).send({
    to: "ada@student.test",
    subject: "Reset your password",
    text: "Open http://localhost:4321/password/reset/MQ/abc-123",
  });
  messageId = (await readOutbox(dir))[0]!.id;
  api = await createApiHarness({ outboxDir: dir });
});
afterAll(async () => {
  try {
    await api?.close();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

const paths = () => ["/dev/outbox", `/dev/outbox/${messageId}`];
const socket = (remoteAddress: string) => ({ incoming: { socket: { remoteAddress } } });

describe("the development outbox page", () => {
  it.each(["127.0.0.1", "::1", "::ffff:127.0.0.1"])(
    "opens for a browser on this machine (%s) through the proxy",
    async (address) => {
      for (const path of paths()) {
        const response = await api.request(path, { clientAddress: address });
        expect(response.status, path).toBe(200);
        expect(await response.text(), path).toContain("Reset your password");
      }
    },
  );

  it("opens for a developer calling the API's port from this machine", async () => {
    const response = await api.app.request("/dev/outbox", {}, socket("127.0.0.1"));
    expect(response.status).toBe(200);
  });

  it("answers anyone else as if there were nothing there", async () => {
    for (const path of paths()) {
      const response = await api.request(path, { clientAddress: "203.0.113.7" });
      expect(response.status, path).toBe(404);
      const body = await response.text();
      expect(body, path).not.toContain("Reset your password");
      expect(JSON.parse(body).error.message).toBe("There is nothing at this address.");
    }
  });

  it("does not believe a loopback x-forwarded-for without the proxy's secret", async () => {
    const spoofed = { headers: { "x-forwarded-for": "127.0.0.1" } };
    expect((await api.app.request("/dev/outbox", spoofed, socket("203.0.113.7"))).status).toBe(404);
    // In-process, with no socket and no secret, the caller is unknown: not this machine.
    expect((await api.app.request("/dev/outbox", spoofed)).status).toBe(404);
  });
});

describe("without an outbox folder (production)", () => {
  it("has no outbox page, even for this machine", async () => {
    const production = await createApiHarness();
    try {
      expect((await production.request("/dev/outbox", { clientAddress: "127.0.0.1" })).status).toBe(
        404,
      );
    } finally {
      await production.close();
    }
  });
});
