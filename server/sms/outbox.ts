import { randomBytes } from "node:crypto";
import { mkdir, readdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import { smsSegments } from "./gsm7.ts";
import type { SmsSender } from "./sms-message.ts";

/** A text message as the outbox keeps it: one JSON file each. */
export const SmsOutboxMessage = z.object({
  id: z.string(),
  to: z.string(),
  text: z.string(),
  segments: z.number().int().positive(),
  sentAt: z.iso.datetime(),
});
export type SmsOutboxMessage = z.infer<typeof SmsOutboxMessage>;

// As the mail outbox's: the send time to the millisecond, then 8 hex digits; sorts in sending order.
const ID_PATTERN = /^\d{8}T\d{9}Z-[0-9a-f]{8}$/;

/**
 * An SMS sender for development and tests: each message becomes `<id>.json` in `dir`, where
 * `/api/dev/sms-outbox` shows it (decision 200). No provider, no cost.
 */
export function createSmsOutbox(options: { dir: string }): SmsSender {
  let lastStamp = 0;
  return {
    async send({ to, text }) {
      lastStamp = Math.max(Date.now(), lastStamp + 1);
      const sentAt = new Date(lastStamp).toISOString();
      const id = `${sentAt.replace(/[-:.]/g, "")}-${randomBytes(4).toString("hex")}`;
      const stored: SmsOutboxMessage = { id, to, text, segments: smsSegments(text), sentAt };
      await mkdir(options.dir, { recursive: true });
      // Written under another name first, so a reader never sees half a file.
      const partial = join(options.dir, `.${id}.partial`);
      await writeFile(partial, JSON.stringify(stored, null, 2));
      await rename(partial, join(options.dir, `${id}.json`));
      return { providerMessageId: `outbox-${id}` };
    },
    describe: () => `SMS outbox ${options.dir}`,
  };
}

/** The newest `limit` messages in the outbox, newest first; none when `dir` does not exist. */
export async function readSmsOutbox(dir: string, limit = 100): Promise<SmsOutboxMessage[]> {
  const ids = (await listFiles(dir))
    .filter((name) => name.endsWith(".json"))
    .map((name) => name.slice(0, -".json".length))
    .filter((id) => ID_PATTERN.test(id))
    .sort()
    .reverse()
    .slice(0, Math.max(0, limit));
  const messages = await Promise.all(ids.map((id) => readMessage(dir, id)));
  return messages.filter((message) => message !== undefined);
}

// server/mail/outbox.ts keeps the same helpers to itself; these are the same few lines.
async function listFiles(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch (error) {
    if (isNotFound(error)) return [];
    throw error;
  }
}

/** Undefined when the file went between listing and reading (someone emptied the folder). */
async function readMessage(dir: string, id: string): Promise<SmsOutboxMessage | undefined> {
  try {
    return SmsOutboxMessage.parse(JSON.parse(await readFile(join(dir, `${id}.json`), "utf8")));
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
}

function isNotFound(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === "ENOENT";
}
