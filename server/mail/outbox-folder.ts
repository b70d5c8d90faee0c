import { randomBytes } from "node:crypto";
import { mkdir, readdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { z } from "zod";

/**
 * A development outbox on disk, shared by mail (server/mail/outbox.ts) and SMS
 * (server/sms/outbox.ts): one `<id>.json` per message, ids that start with the send time to the
 * millisecond and sort in sending order, written so a reader never sees half a file.
 */

// "20250131T235959123Z-" plus 8 hex digits: sorts by time as text, safe in a URL and a file name.
const ID_PATTERN = /^\d{8}T\d{9}Z-[0-9a-f]{8}$/;

/** A writer for one folder: `write` stores a message made for its new id and send time. */
export function outboxFolder(dir: string) {
  let lastStamp = 0;
  return async function write<T>(make: (id: string, sentAt: string) => T): Promise<T> {
    // Two sends within one millisecond still get increasing ids, so "newest first" holds.
    lastStamp = Math.max(Date.now(), lastStamp + 1);
    const sentAt = new Date(lastStamp).toISOString();
    const id = `${sentAt.replace(/[-:.]/g, "")}-${randomBytes(4).toString("hex")}`;
    const stored = make(id, sentAt);
    await mkdir(dir, { recursive: true });
    const partial = join(dir, `.${id}.partial`);
    await writeFile(partial, JSON.stringify(stored, null, 2));
    await rename(partial, join(dir, `${id}.json`));
    return stored;
  };
}

/** The newest `limit` messages in `dir`, newest first; none when it does not exist. */
export async function readNewest<S extends z.ZodType>(
  dir: string,
  schema: S,
  limit: number,
): Promise<z.infer<S>[]> {
  const ids = (await listFiles(dir))
    .filter((name) => name.endsWith(".json"))
    .map((name) => name.slice(0, -".json".length))
    .filter((id) => ID_PATTERN.test(id))
    .sort()
    .reverse()
    .slice(0, Math.max(0, limit));
  const messages = await Promise.all(ids.map((id) => readOne(dir, id, schema)));
  return messages.filter((message) => message !== undefined);
}

/**
 * One message by id, or undefined when there is none, the id is not an outbox id, or the file
 * went between listing and reading (someone emptied the folder).
 */
export async function readOne<S extends z.ZodType>(
  dir: string,
  id: string,
  schema: S,
): Promise<z.infer<S> | undefined> {
  if (!ID_PATTERN.test(id)) return undefined;
  try {
    return schema.parse(JSON.parse(await readFile(join(dir, `${id}.json`), "utf8")));
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
