import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createOutboxMailer, readOutbox, readOutboxMessage } from "./mailer.ts";

const from = "Federal College of Education <noreply@fce.test>";

describe("outbox mailer", () => {
  let root: string;
  let dir: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), "outbox-"));
    dir = join(root, "data", "outbox"); // not there yet: the mailer creates it
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it("stores every field and reads messages back newest first", async () => {
    const mailer = createOutboxMailer({ dir, from });
    const before = Date.now();
    await mailer.send({ to: "ada@student.test", subject: "First", text: "one" });
    await mailer.send({
      to: "bello@student.test",
      subject: "Second",
      text: "two",
      html: "<p>two</p>",
      replyTo: "bursary@fce.test",
    });

    const [newest, oldest] = await readOutbox(dir);
    expect(newest).toEqual({
      id: expect.stringMatching(/^\d{8}T\d{9}Z-[0-9a-f]{8}$/),
      from,
      to: "bello@student.test",
      subject: "Second",
      text: "two",
      html: "<p>two</p>",
      replyTo: "bursary@fce.test",
      sentAt: expect.any(String),
    });
    expect(oldest).toMatchObject({ from, to: "ada@student.test", subject: "First", text: "one" });
    expect(oldest).not.toHaveProperty("html");
    expect(Date.parse(oldest.sentAt)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(newest.sentAt)).toBeGreaterThan(Date.parse(oldest.sentAt));
    expect(newest.id > oldest.id).toBe(true);
  });

  it("writes one JSON file per message, named by its id", async () => {
    const mailer = createOutboxMailer({ dir, from });
    await mailer.send({ to: "ada@student.test", subject: "Hello", text: "Hi" });

    const [message] = await readOutbox(dir);
    expect(await readdir(dir)).toEqual([`${message.id}.json`]);
    expect(JSON.parse(await readFile(join(dir, `${message.id}.json`), "utf8"))).toEqual(message);
  });

  it("keeps ids unique and in sending order across a burst", async () => {
    const mailer = createOutboxMailer({ dir, from });
    for (let i = 0; i < 20; i++) {
      await mailer.send({ to: "ada@student.test", subject: `Message ${i}`, text: "burst" });
    }

    const messages = await readOutbox(dir);
    expect(new Set(messages.map((m) => m.id)).size).toBe(20);
    expect(messages.map((m) => m.subject)).toEqual(
      Array.from({ length: 20 }, (_, i) => `Message ${19 - i}`),
    );
    expect((await readOutbox(dir, 3)).map((m) => m.subject)).toEqual([
      "Message 19",
      "Message 18",
      "Message 17",
    ]);
  });

  it("reads one message by id and refuses ids that are not outbox ids", async () => {
    const mailer = createOutboxMailer({ dir, from });
    await mailer.send({ to: "ada@student.test", subject: "Hello", text: "Hi" });
    const [message] = await readOutbox(dir);
    await writeFile(join(root, "secret.json"), JSON.stringify(message));

    expect(await readOutboxMessage(dir, message.id)).toEqual(message);
    expect(await readOutboxMessage(dir, "20000101T000000000Z-00000000")).toBeUndefined();
    expect(await readOutboxMessage(dir, "../secret")).toBeUndefined();
  });

  it("ignores files that are not messages and reads an absent outbox as empty", async () => {
    expect(await readOutbox(dir)).toEqual([]);
    const mailer = createOutboxMailer({ dir, from });
    await mailer.send({ to: "ada@student.test", subject: "Hello", text: "Hi" });
    await writeFile(join(dir, "notes.json"), "{}");
    await writeFile(join(dir, ".20000101T000000000Z-00000000.partial"), "{");

    expect((await readOutbox(dir)).map((m) => m.subject)).toEqual(["Hello"]);
  });

  it("describes itself by its folder", () => {
    expect(createOutboxMailer({ dir: "./data/outbox", from }).describe()).toBe(
      "outbox ./data/outbox",
    );
  });
});
