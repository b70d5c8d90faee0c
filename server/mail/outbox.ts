import { randomBytes } from "node:crypto";
import { mkdir, readdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import type { Mailer } from "./mail-message.ts";

/** A message as stored in the outbox: one JSON file per message. */
export const OutboxMessage = z.object({
  id: z.string(),
  from: z.string(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  html: z.string().optional(),
  replyTo: z.string().optional(),
  sentAt: z.iso.datetime(),
});
export type OutboxMessage = z.infer<typeof OutboxMessage>;

// "20250131T235959123Z-" plus 8 hex digits: sorts by time as text, safe in a URL and a file name.
const ID_PATTERN = /^\d{8}T\d{9}Z-[0-9a-f]{8}$/;
const DEFAULT_LIMIT = 100;

/**
 * A mailer for development: each message becomes `<id>.json` in `dir` (created if missing).
 * Ids start with the send time to the millisecond and sort in sending order.
 */
export function createOutboxMailer(options: { dir: string; from: string }): Mailer {
  let lastStamp = 0;
  return {
    async send(message) {
      // Two sends within one millisecond still get increasing ids, so "newest first" holds.
      lastStamp = Math.max(Date.now(), lastStamp + 1);
      const sentAt = new Date(lastStamp).toISOString();
      const id = `${sentAt.replace(/[-:.]/g, "")}-${randomBytes(4).toString("hex")}`;
      const { to, subject, text, html, replyTo } = message;
      const stored: OutboxMessage = {
        id,
        from: options.from,
        to,
        subject,
        text,
        html,
        replyTo,
        sentAt,
      };
      await mkdir(options.dir, { recursive: true });
      // Written under another name first, so a reader never sees half a file.
      const partial = join(options.dir, `.${id}.partial`);
      await writeFile(partial, JSON.stringify(stored, null, 2));
      await rename(partial, join(options.dir, `${id}.json`));
    },
    describe: () => `outbox ${options.dir}`,
  };
}

/** The newest `limit` messages in the outbox, newest first; none when `dir` does not exist. */
export async function readOutbox(dir: string, limit = DEFAULT_LIMIT): Promise<OutboxMessage[]> {
  const ids = (await listFiles(dir))
    .filter((name) => name.endsWith(".json"))
    .map((name) => name.slice(0, -".json".length))
    .filter((id) => ID_PATTERN.test(id))
    .sort()
    .reverse()
    .slice(0, Math.max(0, limit));
  const messages = await Promise.all(ids.map((id) => readOutboxMessage(dir, id)));
  return messages.filter((message) => message !== undefined);
}

/** One outbox message by id, or undefined when there is none (or the id is not an outbox id). */
export async function readOutboxMessage(
  dir: string,
  id: string,
): Promise<OutboxMessage | undefined> {
  if (!ID_PATTERN.test(id)) return undefined;
  try {
    return OutboxMessage.parse(JSON.parse(await readFile(join(dir, `${id}.json`), "utf8")));
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
}

async function listFiles(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch (error) {
    if (isNotFound(error)) return [];
    throw error;
  }
}

function isNotFound(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === "ENOENT";
}
