import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createSmsOutbox, readSmsOutbox } from "./outbox.ts";

let root: string;
let dir: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "sms-outbox-"));
  dir = join(root, "sms-outbox"); // not there yet: the outbox makes it
});
afterEach(() => rm(root, { recursive: true, force: true }));

describe("the SMS outbox", () => {
  it("keeps each message with its segments, newest first, and answers a receipt", async () => {
    const outbox = createSmsOutbox({ dir });
    const before = Date.now();
    const first = await outbox.send({ to: "+2348030000001", text: "First." });
    await outbox.send({ to: "+2348030000002", text: `₦${"a".repeat(70)}` });
    const [newest, oldest] = await readSmsOutbox(dir);
    expect(newest).toEqual({
      id: expect.stringMatching(/^\d{8}T\d{9}Z-[0-9a-f]{8}$/),
      to: "+2348030000002",
      text: `₦${"a".repeat(70)}`,
      segments: 2,
      sentAt: expect.any(String),
    });
    expect(oldest).toMatchObject({ to: "+2348030000001", text: "First.", segments: 1 });
    expect(Date.parse(oldest!.sentAt)).toBeGreaterThanOrEqual(before);
    expect(first).toEqual({ providerMessageId: `outbox-${oldest!.id}` });
  });

  it("writes one JSON file per message, named by its id, and leaves no partial file", async () => {
    await createSmsOutbox({ dir }).send({ to: "+2348030000001", text: "Hello." });
    const [message] = await readSmsOutbox(dir);
    expect(await readdir(dir)).toEqual([`${message!.id}.json`]);
    expect(JSON.parse(await readFile(join(dir, `${message!.id}.json`), "utf8"))).toEqual(message);
  });

  it("keeps ids in sending order across a burst, and reads only the newest `limit`", async () => {
    const outbox = createSmsOutbox({ dir });
    for (let i = 0; i < 20; i++) await outbox.send({ to: "+2348030000001", text: `Text ${i}` });
    const messages = await readSmsOutbox(dir);
    expect(new Set(messages.map((message) => message.id)).size).toBe(20);
    expect(messages.map((message) => message.text)).toEqual(
      Array.from({ length: 20 }, (_, i) => `Text ${19 - i}`),
    );
    expect((await readSmsOutbox(dir, 2)).map((message) => message.text)).toEqual([
      "Text 19",
      "Text 18",
    ]);
  });

  it("ignores files that are not messages, and reads a folder not made yet as empty", async () => {
    expect(await readSmsOutbox(dir)).toEqual([]);
    await createSmsOutbox({ dir }).send({ to: "+2348030000001", text: "Hello." });
    await writeFile(join(dir, "notes.json"), "{}");
    await writeFile(join(dir, ".20000101T000000000Z-00000000.partial"), "{");
    expect((await readSmsOutbox(dir)).map((message) => message.text)).toEqual(["Hello."]);
  });

  it("describes itself by its folder", () => {
    expect(createSmsOutbox({ dir: "./data/sms-outbox" }).describe()).toBe(
      "SMS outbox ./data/sms-outbox",
    );
  });
});
