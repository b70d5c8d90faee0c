import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiHarness, type ApiHarness } from "../testing/api-harness.test-kit.ts";
import { createSmsOutbox } from "./outbox.ts";

// The SMS outbox holds every text message the portal sent, password codes included (decision 200).
let api: ApiHarness;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "sms-outbox-loopback-"));
  await createSmsOutbox({ dir }).send({ to: "+2348030000001", text: "123456 is your code." });
  api = await createApiHarness({ smsOutboxDir: dir });
});
afterAll(async () => {
  try {
    await api?.close();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

describe("the development SMS outbox page", () => {
  it.each(["127.0.0.1", "::1"])("opens for a browser on this machine (%s)", async (address) => {
    const response = await api.request("/dev/sms-outbox", { clientAddress: address });
    expect(response.status).toBe(200);
    const page = await response.text();
    expect(page).toContain("123456 is your code.");
    expect(page).toContain('data-sms-to="+2348030000001"');
  });

  it("answers anyone else as if there were nothing there", async () => {
    const response = await api.request("/dev/sms-outbox", { clientAddress: "203.0.113.7" });
    expect(response.status).toBe(404);
    expect(await response.text()).not.toContain("123456");
  });

  it("does not exist without an outbox folder (production)", async () => {
    expect(api.deps.smsOutboxDir).toBe(dir);
    const production = await createApiHarness();
    try {
      const response = await production.request("/dev/sms-outbox", { clientAddress: "127.0.0.1" });
      expect(response.status).toBe(404);
    } finally {
      await production.close();
    }
  });
});
