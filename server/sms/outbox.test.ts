import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createSmsOutbox, readSmsOutbox } from "./outbox.ts";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "sms-outbox-"));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe("the SMS outbox", () => {
  it("keeps each message with its segments, newest first, and answers a receipt", async () => {
    const outbox = createSmsOutbox({ dir });
    const first = await outbox.send({ to: "+2348030000001", text: "First." });
    await outbox.send({ to: "+2348030000002", text: `₦${"a".repeat(70)}` });
    const messages = await readSmsOutbox(dir);
    expect(messages.map((message) => [message.to, message.segments])).toEqual([
      ["+2348030000002", 2],
      ["+2348030000001", 1],
    ]);
    expect(first).toEqual({ providerMessageId: `outbox-${messages[1]!.id}` });
    expect(await readSmsOutbox(dir, 1)).toHaveLength(1);
  });

  it("reads nothing from a folder that does not exist yet", async () => {
    expect(await readSmsOutbox(join(dir, "never-made"))).toEqual([]);
  });
});
